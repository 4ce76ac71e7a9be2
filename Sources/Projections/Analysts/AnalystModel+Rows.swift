import SubscriptionDomain

// The fixed-width stored form of the model's fact columns (AnalystModel+Binary.swift): int64s,
// then int32 ids, the five segment value ids, then any byte, little-endian.

private typealias LE = LittleEndianBytes

extension AnalystModel {
    static func decodeSeg(_ p: UnsafeRawPointer, _ at: Int) -> Seg {
        var s = Seg(repeating: -1)
        for i in 0..<Segment.allCases.count { s[i] = LE.int32(p, at + 4 * i) }
        return s
    }
    static func encode(_ s: Seg, _ b: inout [UInt8]) { for i in 0..<Segment.allCases.count { LE.append(s[i], &b) } }
    /// The bytes of a row's segment ids.
    static let segWidth = 4 * Segment.allCases.count
}

extension AnalystModel.Movement: FixedRow {
    package static var width: Int { 24 + AnalystModel.segWidth + 1 }
    package static func decode(_ p: UnsafeRawPointer) -> Self {
        Self(time: LE.int64(p, 0), kind: AnalystFacts.Movement.Kind(rawValue: p.load(fromByteOffset: 24 + AnalystModel.segWidth, as: UInt8.self)) ?? .new,
             currency: LE.int32(p, 16), mrr: LE.int64(p, 8), user: LE.int32(p, 20), seg: AnalystModel.decodeSeg(p, 24))
    }
    package func encode(into b: inout [UInt8]) {
        LE.append(time, &b); LE.append(mrr, &b); LE.append(currency, &b); LE.append(user, &b); AnalystModel.encode(seg, &b); b.append(kind.rawValue)
    }
}

extension AnalystModel.Trial: FixedRow {
    package static var width: Int { 24 + AnalystModel.segWidth }
    package static func decode(_ p: UnsafeRawPointer) -> Self {
        Self(start: LE.int64(p, 0), convertedAt: LE.int64(p, 8), abandonedAt: LE.int64(p, 16), seg: AnalystModel.decodeSeg(p, 24))
    }
    package func encode(into b: inout [UInt8]) { LE.append(start, &b); LE.append(convertedAt, &b); LE.append(abandonedAt, &b); AnalystModel.encode(seg, &b) }
}

extension AnalystModel.Charge: FixedRow {
    package static var width: Int { 24 + AnalystModel.segWidth }
    package static func decode(_ p: UnsafeRawPointer) -> Self {
        Self(time: LE.int64(p, 0), user: LE.int32(p, 16), currency: LE.int32(p, 20), micros: LE.int64(p, 8), seg: AnalystModel.decodeSeg(p, 24))
    }
    package func encode(into b: inout [UInt8]) { LE.append(time, &b); LE.append(micros, &b); LE.append(user, &b); LE.append(currency, &b); AnalystModel.encode(seg, &b) }
}

extension AnalystModel.Refund: FixedRow {
    package static var width: Int { 28 + AnalystModel.segWidth + 1 }
    package static func decode(_ p: UnsafeRawPointer) -> Self {
        Self(time: LE.int64(p, 0), chargeTime: LE.int64(p, 8), currency: LE.int32(p, 24), micros: LE.int64(p, 16),
             sign: p.load(fromByteOffset: 28 + AnalystModel.segWidth, as: Int8.self), seg: AnalystModel.decodeSeg(p, 28))
    }
    package func encode(into b: inout [UInt8]) {
        LE.append(time, &b); LE.append(chargeTime, &b); LE.append(micros, &b); LE.append(currency, &b); AnalystModel.encode(seg, &b)
        b.append(UInt8(bitPattern: sign))
    }
}

extension AnalystModel.Customer: FixedRow {
    package static var width: Int { 28 + AnalystModel.segWidth }
    package static func decode(_ p: UnsafeRawPointer) -> Self {
        Self(firstSeen: LE.int64(p, 0), firstConversion: LE.int64(p, 8), firstPaid: LE.int64(p, 16), user: LE.int32(p, 24), seg: AnalystModel.decodeSeg(p, 28))
    }
    package func encode(into b: inout [UInt8]) {
        LE.append(firstSeen, &b); LE.append(firstConversion, &b); LE.append(firstPaid, &b); LE.append(user, &b); AnalystModel.encode(seg, &b)
    }
}

extension AnalystModel.CohortMoney: FixedRow {
    package static var width: Int { 28 + AnalystModel.segWidth }
    package static func decode(_ p: UnsafeRawPointer) -> Self {
        Self(firstSeen: LE.int64(p, 0), time: LE.int64(p, 8), currency: LE.int32(p, 24), micros: LE.int64(p, 16), seg: AnalystModel.decodeSeg(p, 28))
    }
    package func encode(into b: inout [UInt8]) { LE.append(firstSeen, &b); LE.append(time, &b); LE.append(micros, &b); LE.append(currency, &b); AnalystModel.encode(seg, &b) }
}

extension AnalystModel.Activity: FixedRow {
    package static var width: Int { 12 }
    package static func decode(_ p: UnsafeRawPointer) -> Self { Self(day: LE.int64(p, 0), user: LE.int32(p, 8)) }
    package func encode(into b: inout [UInt8]) { LE.append(day, &b); LE.append(user, &b) }
}
