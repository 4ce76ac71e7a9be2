import SubscriptionDomain

/// One walk over a value's stored fields, in their stored order, that either writes each field
/// (`ProjectionWriter`) or reads it into place (`ProjectionReader`). A format written as one such
/// walk (`UserFold.code`) is written once: its writer and its reader cannot take the fields in
/// different orders.
protocol FieldCoder {
    /// An uninhabited type for the writer.
    associatedtype Failure: Error
    mutating func code(_ v: inout String) throws(Failure)
    /// A string that many values hold alike (a product, a currency): the reader keeps one copy.
    mutating func code(shared v: inout String) throws(Failure)
    mutating func code(_ v: inout Bool) throws(Failure)
    mutating func code(_ v: inout UInt8) throws(Failure)
    mutating func code(_ v: inout Int) throws(Failure)
    mutating func code(_ v: inout Int64) throws(Failure)
    mutating func code(_ v: inout Timestamp) throws(Failure)
    mutating func code(_ v: inout Money) throws(Failure)
    /// A count kept as a varint, at most `UInt32.max`.
    mutating func code(count v: inout UInt32) throws(Failure)
    /// A frozen tag, stored as its raw value.
    mutating func code<T: RawRepresentable<String>>(tag v: inout T) throws(Failure)
    /// A presence flag, then the value through `body` (read into `blank`).
    mutating func code<T>(_ v: inout T?, blank: @autoclosure () -> T, _ body: (inout Self, inout T) throws(Failure) -> Void) throws(Failure)
    /// A count, then each element through `body` (each read into `blank`).
    mutating func code<T>(_ v: inout [T], blank: @autoclosure () -> T, _ body: (inout Self, inout T) throws(Failure) -> Void) throws(Failure)
}

extension ProjectionWriter: FieldCoder {
    /// The writer appends to memory and cannot fail; no value of this type exists.
    enum Failure: Error {}
    mutating func code(_ v: inout String) { string(v) }
    mutating func code(shared v: inout String) { string(v) }
    mutating func code(_ v: inout Bool) { bool(v) }
    mutating func code(_ v: inout UInt8) { byte(v) }
    mutating func code(_ v: inout Int) { int(v) }
    mutating func code(_ v: inout Int64) { int64(v) }
    mutating func code(_ v: inout Timestamp) { time(v) }
    mutating func code(_ v: inout Money) { money(v) }
    mutating func code(count v: inout UInt32) { varint(UInt64(v)) }
    mutating func code<T: RawRepresentable<String>>(tag v: inout T) { string(v.rawValue) }
    mutating func code<T>(_ v: inout T?, blank: @autoclosure () -> T, _ body: (inout Self, inout T) throws(Failure) -> Void) throws(Failure) {
        bool(v != nil)
        if var value = v { try body(&self, &value) }
    }
    mutating func code<T>(_ v: inout [T], blank: @autoclosure () -> T, _ body: (inout Self, inout T) throws(Failure) -> Void) throws(Failure) {
        count(v.count)
        for var value in v { try body(&self, &value) }
    }
}

extension ProjectionReader: FieldCoder {
    /// `Unreadable` for bytes that are not a fold; the source's own read errors as they are.
    typealias Failure = any Error
    mutating func code(_ v: inout String) throws { v = try string() }
    mutating func code(shared v: inout String) throws { v = try sharedString() }
    mutating func code(_ v: inout Bool) throws { v = try bool() }
    mutating func code(_ v: inout UInt8) throws { v = try byte() }
    mutating func code(_ v: inout Int) throws { v = try int() }
    mutating func code(_ v: inout Int64) throws { v = try int64() }
    mutating func code(_ v: inout Timestamp) throws { v = try time() }
    mutating func code(_ v: inout Money) throws { v = try money() }
    mutating func code(count v: inout UInt32) throws {
        let n = try varint()
        guard n <= UInt64(UInt32.max) else { throw unreadable("count \(n) is not plausible") }
        v = UInt32(n)
    }
    mutating func code<T: RawRepresentable<String>>(tag v: inout T) throws { v = try tag(T.self) }
    mutating func code<T>(_ v: inout T?, blank: @autoclosure () -> T, _ body: (inout Self, inout T) throws -> Void) throws {
        guard try bool() else { v = nil; return }
        var value = blank()
        try body(&self, &value)
        v = value
    }
    mutating func code<T>(_ v: inout [T], blank: @autoclosure () -> T, _ body: (inout Self, inout T) throws -> Void) throws {
        let n = try count()
        var out: [T] = []
        out.reserveCapacity(min(n, 1024))
        for _ in 0..<n {
            var value = blank()
            try body(&self, &value)
            out.append(value)
        }
        v = out
    }
}
