// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SubscriptionLedger",
    // macOS 15: the standard library's Int128 (the report summary's exact money sums); Linux has no floor.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "replay-tool", targets: ["replay-tool"]),
        .library(name: "EventStore", targets: ["EventStore"]),
        .library(name: "SubscriptionDomain", targets: ["SubscriptionDomain"]),
        .library(name: "Projections", targets: ["Projections"]),
    ],
    targets: [
        .target(name: "HardwareCRC32C"),
        .target(name: "HardwareSHA256"),
        .target(name: "MemoryPrefetch"),
        .target(name: "SignalPipe"),
        .target(name: "EventStore", dependencies: ["HardwareCRC32C", "HardwareSHA256", "SignalPipe"]),
        .target(name: "SubscriptionDomain"),
        .target(name: "Projections", dependencies: ["EventStore", "SubscriptionDomain", "MemoryPrefetch"]),
        .target(name: "PostgresSink", dependencies: ["EventStore", "SubscriptionDomain", "Projections"]),
        .target(name: "Reports", dependencies: ["Projections", "SubscriptionDomain"]),
        .executableTarget(name: "replay-tool", dependencies: ["EventStore", "SubscriptionDomain", "Projections", "Reports", "PostgresSink"]),
        .executableTarget(name: "ledger-bench", dependencies: ["EventStore", "SubscriptionDomain", "Projections"], path: "Benchmarks/ledger-bench"),
        .testTarget(name: "EventStoreTests", dependencies: ["EventStore"]),
        .testTarget(name: "SubscriptionDomainTests", dependencies: ["SubscriptionDomain"]),
        .testTarget(name: "ProjectionsTests", dependencies: ["Projections", "EventStore", "SubscriptionDomain"]),
        .testTarget(name: "ReplayToolTests", dependencies: ["replay-tool"]),
        .testTarget(name: "PostgresSinkTests", dependencies: ["PostgresSink"]),
    ],
    swiftLanguageModes: [.v6]
)
