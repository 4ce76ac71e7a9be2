extension EventLog {
    /// The segment format version this build writes and reads (docs/log-format.md); a segment of
    /// another version is refused.
    public static var formatVersion: UInt32 { LogFormat.version }
}
