extension Profile {
    /// The text a log keeps to say which app's events it holds: `app NAME`. Profiles of one app
    /// share it, whatever their rules (a billing grace of 7 days) or their catalog (an app adds
    /// products over time; the import door still refuses a product the profile does not list).
    public var appDeclaration: [UInt8] { Array(("app " + app + "\n").utf8) }

    /// The app a declaration names (nil if it names none).
    public static func appName(inDeclaration bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix("app "), text.hasSuffix("\n") else { return nil }
        return String(text.dropFirst(4).dropLast())
    }
}
