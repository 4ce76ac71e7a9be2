extension HTTPRequestParser {
    /// The longest chunk-size line (size and extensions) accepted.
    static let maxChunkLineBytes = 4096

    /// Decodes complete chunks from `chunkCursor` on, keeping what was decoded between calls;
    /// then reads the trailer section (checked like header fields, then dropped).
    mutating func advanceChunks(_ buffer: [UInt8], from start: Int, head: Head) -> HTTPParseOutcome {
        let available = buffer.count - start
        while true {
            let lineStart = chunkCursor
            let limit = inTrailers ? max(0, limits.maxHeaderBytes - (lineStart - trailerStart)) : Self.maxChunkLineBytes
            let found = lineEnd(buffer, start: start, from: lineStart, maxLength: limit,
                                tooLong: inTrailers ? .headerBlockTooLarge : .invalidChunk)
            let end: Int
            switch found {
            case .failure(let error): return .rejected(error)
            case .success(nil):
                return .incomplete(expectsContinue: head.expectsContinue && available == head.end)
            case .success(let lineEnd?): end = lineEnd
            }
            let line = (start + lineStart)..<(start + end - 2)
            if inTrailers {
                if line.isEmpty { return .request(head.request(body: chunkBody), consumed: end) }
                if trailerCount >= limits.maxHeaderCount {
                    return .rejected(HTTPRequestError(.tooManyHeaders, at: lineStart, "over \(limits.maxHeaderCount) trailer fields"))
                }
                if case .failure(let error) = Field.parse(buffer, line, base: start) { return .rejected(error) }
                trailerCount += 1
                chunkCursor = end
                continue
            }
            let size: Int
            switch chunkSize(buffer, line, base: start) {
            case .failure(let error): return .rejected(error)
            case .success(let value): size = value
            }
            if size == 0 {
                inTrailers = true
                trailerStart = end
                chunkCursor = end
                continue
            }
            guard available - end >= size + 2 else {
                return .incomplete(expectsContinue: false)
            }
            let dataEnd = start + end + size
            guard buffer[dataEnd] == 0x0D, buffer[dataEnd + 1] == 0x0A else {
                return .rejected(HTTPRequestError(.invalidChunk, at: dataEnd - start, "chunk data not followed by CRLF"))
            }
            chunkBody.append(contentsOf: buffer[(start + end)..<dataEnd])
            chunkCursor = dataEnd + 2 - start
        }
    }

    /// `1*HEXDIG [ BWS ";" chunk-ext ]`: the size, refused with 413 once the body would pass the limit.
    private func chunkSize(_ buffer: [UInt8], _ line: Range<Int>, base: Int) -> Result<Int, HTTPRequestError> {
        let room = limits.maxBodyBytes - chunkBody.count
        var size = 0
        var i = line.lowerBound
        while i < line.upperBound, ByteClass.test(buffer[i], ByteClass.hex) {
            let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
            size = shifted | Int(ByteClass.hexValue(buffer[i]))
            if overflow || size > room {
                return .failure(HTTPRequestError(.bodyTooLarge, at: line.lowerBound - base, "chunked body over \(limits.maxBodyBytes)"))
            }
            i += 1
        }
        if i == line.lowerBound {
            return .failure(HTTPRequestError(.invalidChunk, at: line.lowerBound - base, "no chunk size"))
        }
        while i < line.upperBound, ByteClass.isWhitespace(buffer[i]) { i += 1 }
        if i < line.upperBound {
            guard buffer[i] == UInt8(ascii: ";") else {
                return .failure(HTTPRequestError(.invalidChunk, at: i - base, "chunk size not followed by ; or CRLF"))
            }
            if let bad = buffer[i..<line.upperBound].firstIndex(where: { !ByteClass.test($0, ByteClass.fieldValue) }) {
                return .failure(HTTPRequestError(.invalidChunk, at: bad - base, "control byte in a chunk extension"))
            }
        }
        return .success(size)
    }
}
