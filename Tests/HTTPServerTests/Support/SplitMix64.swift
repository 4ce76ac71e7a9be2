// The seeded generator is TestKit's SplitMix64, shared by every test target.
@_exported import TestKit
