import Projections
import EventStore

/// The header every derived file of the projections starts with (the kept projection, the report
/// summary, the time index): its magic line, its format or code version, the projection
/// fingerprint (profile, rules, code) and the log head it derives from (position and chain hash).
/// Written and read here once; each file checks the version against its own.
struct DerivedFileHeader {
    var version: Int
    var fingerprint: String
    var position: UInt64
    var hash: EventStore.SHA256.Digest
}

extension ProjectionWriter {
    /// Appends `magic` and the header's fields.
    mutating func header(_ magic: [UInt8], _ h: DerivedFileHeader) {
        raw(magic)
        count(h.version)
        string(h.fingerprint)
        int64(Int64(bitPattern: h.position))
        raw(h.hash.bytes)
    }
}

extension ProjectionReader {
    /// Reads a header after `magic`; a file that does not start with it is unreadable ("not
    /// `what`"), and so is one whose version `refuses` names a reason for (checked before the
    /// rest of the header is read).
    mutating func header(_ magic: [UInt8], what: String, refuses: (Int) -> String? = { _ in nil }) throws -> DerivedFileHeader {
        guard try raw(magic.count) == magic else { throw unreadable("not \(what)") }
        let version = try count()
        if let why = refuses(version) { throw unreadable(why) }
        let fingerprint = try string()
        let position = UInt64(bitPattern: try int64())
        return DerivedFileHeader(version: version, fingerprint: fingerprint, position: position, hash: EventStore.SHA256.Digest(bytes: try raw(32)))
    }
}
