/// The log's chain hash type (`SHA256.Digest`) is part of this module's interface (`LogHead`,
/// `chainHash(at:)`), so its module comes with it.
@_exported import Cryptography
