// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SubscriptionLedger",
    // macOS 15: the standard library's Int128 (the report summary's exact money sums); Linux has no floor.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "replay-tool", targets: ["replay-tool"]),
        .library(name: "Platform", targets: ["Platform"]),
        .library(name: "EventStore", targets: ["EventStore"]),
        .library(name: "SubscriptionDomain", targets: ["SubscriptionDomain"]),
        .library(name: "EventCodec", targets: ["EventCodec"]),
        .library(name: "Projections", targets: ["Projections"]),
        .library(name: "ProjectionStorage", targets: ["ProjectionStorage"]),
        .library(name: "Cryptography", targets: ["Cryptography"]),
        .library(name: "StoreSignature", targets: ["StoreSignature"]),
        .library(name: "Transparency", targets: ["Transparency"]),
        .library(name: "Parquet", targets: ["Parquet"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
    ],
    targets: [
        .target(name: "HardwareCRC32C"),
        .target(name: "HardwareSHA256"),
        .target(name: "MemoryPrefetch"),
        .target(name: "SignalPipe"),
        .target(name: "LinuxSocketShims"),
        // Optimized in every build: the verifiers' field arithmetic is the point of this module, and
        // the published vectors (Wycheproof's P-384 among them) take minutes unoptimized.
        .target(name: "Cryptography", dependencies: ["HardwareSHA256"], swiftSettings: [.unsafeFlags(["-O"])]),
        .target(name: "StoreSignature", dependencies: ["Cryptography"]),
        .target(name: "Transparency", dependencies: ["Cryptography"]),
        .target(name: "Parquet"),
        .target(name: "CSVTable"),
        // Every system call: files, folders, paths, standard streams, signals, sockets.
        .target(name: "Platform", dependencies: ["SignalPipe", "LinuxSocketShims"]),
        .target(name: "HTTPServer", dependencies: ["Platform"]),
        .target(name: "EventStore", dependencies: ["Platform", "Cryptography", "HardwareCRC32C"]),
        .target(name: "SubscriptionDomain"),
        // Synthetic populations of an app's users (demos, benchmarks, the rules corpus): seeded.
        .target(name: "Population", dependencies: ["SubscriptionDomain"]),
        // The event line's JSON: the canonical encoder, the decoder and its scanner, read from the field table.
        .target(name: "EventCodec", dependencies: ["SubscriptionDomain"]),
        // The stores' payloads (App Store Server Notifications, RevenueCat webhooks) mapped to events.
        .target(name: "StoreAdapters", dependencies: ["SubscriptionDomain", "EventCodec"]),
        // Folds, replay of events, read models, reports' figures and their merge, in memory.
        .target(name: "Projections", dependencies: ["Platform", "EventStore", "SubscriptionDomain", "EventCodec", "MemoryPrefetch"]),
        // The kept files derived from the log (event cache, projection, time index, analysts' model,
        // report summary), their formats, builds and updates, and the rules fingerprint.
        .target(name: "ProjectionStorage", dependencies: ["Platform", "EventStore", "SubscriptionDomain", "EventCodec", "Projections", "Population"]),
        // Lines in, records out: import and follow, batching, the stores' payloads, rejected lines.
        .target(name: "Ingest", dependencies: ["Platform", "EventStore", "SubscriptionDomain", "EventCodec", "StoreAdapters", "Projections"]),
        .target(name: "PostgresSink", dependencies: ["Platform", "EventStore", "SubscriptionDomain", "Projections", "ProjectionStorage"]),
        .target(name: "Reports", dependencies: ["Projections", "SubscriptionDomain", "EventCodec"]),
        .target(name: "LogProofs", dependencies: ["Platform", "EventStore", "Projections", "SubscriptionDomain", "EventCodec", "Transparency", "Cryptography"]),
        .target(name: "LedgerTables", dependencies: ["EventStore", "SubscriptionDomain", "EventCodec", "Parquet"]),
        .executableTarget(name: "replay-tool", dependencies: ["Platform", "StoreAdapters", "Ingest", "EventStore", "SubscriptionDomain", "EventCodec", "Projections", "ProjectionStorage", "Reports", "PostgresSink",
                                                              "StoreSignature", "Transparency", "Parquet", "CSVTable", "HTTPServer",
                                                              "LogProofs", "LedgerTables", "Population"]),
        .executableTarget(name: "ledger-bench", dependencies: ["Ingest", "EventStore", "SubscriptionDomain", "EventCodec", "Projections", "ProjectionStorage", "Population"], path: "Benchmarks/ledger-bench"),
        .executableTarget(name: "p256-bench", dependencies: ["Cryptography", "StoreSignature"], path: "Benchmarks/p256-bench"),
        .executableTarget(name: "transparency-bench", dependencies: ["Cryptography", "Transparency"], path: "Benchmarks/transparency-bench"),
        .executableTarget(name: "parquet-bench", dependencies: ["Parquet", "CSVTable"], path: "Benchmarks/parquet-bench"),
        .target(name: "LoadGenerator", dependencies: ["Platform", "HTTPServer"], path: "Benchmarks/LoadGenerator"),
        .executableTarget(name: "http-bench", dependencies: ["Platform", "HTTPServer", "LoadGenerator"], path: "Benchmarks/http-bench"),
        .executableTarget(name: "serve-bench", dependencies: ["Platform", "HTTPServer", "LoadGenerator"], path: "Benchmarks/serve-bench"),
        .testTarget(name: "CryptographyTests", dependencies: ["TestKit", "Cryptography"], resources: [.copy("Resources")]),
        // What several test targets share: the seeded generator, hex.
        .target(name: "TestKit", path: "Tests/Fixtures/TestKit"),
        // Certificates and signatures made with openssl, for the signature tests and the import door's.
        .target(name: "AppleChainFixture", dependencies: ["StoreSignature", "Cryptography"], path: "Tests/Fixtures/AppleChainFixture"),
        .testTarget(name: "StoreSignatureTests", dependencies: ["TestKit", "StoreSignature", "Cryptography", "AppleChainFixture"], resources: [.copy("Resources")]),
        .testTarget(name: "TransparencyTests", dependencies: ["TestKit", "Transparency", "Cryptography"], resources: [.copy("Resources")]),
        .testTarget(name: "ParquetTests", dependencies: ["TestKit", "Parquet"]),
        .testTarget(name: "CSVTableTests", dependencies: ["CSVTable"]),
        .testTarget(name: "PlatformTests", dependencies: ["TestKit", "Platform"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["TestKit", "Platform", "HTTPServer"]),
        .testTarget(name: "EventStoreTests", dependencies: ["TestKit", "EventStore", "Cryptography"]),
        // Store payloads written from Apple's and RevenueCat's public field lists.
        .target(name: "StoreFixtures", dependencies: ["StoreAdapters", "SubscriptionDomain"], path: "Tests/Fixtures/StoreFixtures"),
        .testTarget(name: "SubscriptionDomainTests", dependencies: ["SubscriptionDomain", "EventCodec", "StoreAdapters", "StoreFixtures", "Population", "TestKit"]),
        .testTarget(name: "EventCodecTests", dependencies: ["TestKit", "EventCodec", "SubscriptionDomain"]),
        .testTarget(name: "PopulationTests", dependencies: ["TestKit", "Population", "EventCodec", "SubscriptionDomain"]),
        .testTarget(name: "StoreAdaptersTests", dependencies: ["StoreAdapters", "SubscriptionDomain", "StoreFixtures"]),
        // A log filled from canonical lines, folded by the storage's replay.
        .target(name: "LedgerFixture", dependencies: ["TestKit", "StoreAdapters", "Ingest", "Projections", "ProjectionStorage", "EventStore", "SubscriptionDomain"], path: "Tests/Fixtures/LedgerFixture"),
        .testTarget(name: "ProjectionsTests", dependencies: ["TestKit", "LedgerFixture", "Platform", "StoreAdapters", "Ingest", "Projections", "ProjectionStorage", "EventStore", "SubscriptionDomain", "EventCodec", "Population"]),
        .testTarget(name: "ProjectionStorageTests", dependencies: ["TestKit", "LedgerFixture", "Platform", "Ingest", "Projections", "ProjectionStorage", "EventStore", "SubscriptionDomain", "EventCodec", "Population"]),
        .testTarget(name: "IngestTests", dependencies: ["TestKit", "Ingest", "Projections", "EventStore", "SubscriptionDomain", "EventCodec", "StoreAdapters", "Population"]),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "SubscriptionDomain"]),
        .testTarget(name: "ReplayToolTests", dependencies: ["TestKit", "replay-tool", "AppleChainFixture"]),
        .testTarget(name: "PostgresSinkTests", dependencies: ["TestKit", "LedgerFixture", "PostgresSink", "Projections", "SubscriptionDomain", "EventCodec", "EventStore"]),
        .testTarget(name: "LedgerTablesTests", dependencies: ["TestKit", "LedgerFixture", "LedgerTables", "Parquet", "EventStore", "SubscriptionDomain", "EventCodec"]),
        .testTarget(name: "LogProofsTests", dependencies: ["TestKit", "LedgerFixture", "LogProofs", "Transparency", "Cryptography", "EventStore", "EventCodec"]),
    ],
    swiftLanguageModes: [.v6]
)
