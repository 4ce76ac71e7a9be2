import Testing
import SubscriptionDomain
import Projections

/// The per-user answer cache: an answer is served until its instant passes or a commit drops it,
/// and an answer whose read overlapped a drop is not kept.
@Suite struct UserAnswerCacheBehaviour {
    static let t = Timestamp(seconds: 1_800_000_000)

    static func entry(_ answer: String, until: Timestamp? = nil, sources: [String]) -> UserAnswerCache<String>.Entry {
        .init(answer: answer, validUntil: until, sources: sources)
    }

    @Test func anAnswerIsServedUntilItsInstantAndNotFromThenOn() {
        let cache = UserAnswerCache<String>()
        cache.keep(Self.entry("trial", until: Self.t + .hours(1), sources: ["u"]), for: "u", builtAt: cache.generation)
        #expect(cache.answer(for: "u", at: Self.t) == "trial")
        #expect(cache.answer(for: "u", at: Self.t + .hours(1)) == nil, "at the trial's end the answer is rebuilt")
        #expect(cache.count == 0)
        cache.keep(Self.entry("free", sources: ["u"]), for: "u", builtAt: cache.generation)
        #expect(cache.answer(for: "u", at: Self.t + .days(10_000)) == "free", "no timer ahead: kept until a record changes it")
    }

    @Test func aDropRemovesTheUserAndEveryAnswerThatReadTheirStream() {
        let cache = UserAnswerCache<String>()
        let g = cache.generation
        cache.keep(Self.entry("x", sources: ["x", "anon"]), for: "x", builtAt: g)
        cache.keep(Self.entry("anon", sources: ["anon"]), for: "anon", builtAt: g)
        cache.keep(Self.entry("other", sources: ["other"]), for: "other", builtAt: g)
        cache.drop(["anon"])
        #expect(cache.answer(for: "x", at: Self.t) == nil && cache.answer(for: "anon", at: Self.t) == nil)
        #expect(cache.answer(for: "other", at: Self.t) == "other")
    }

    @Test func anAnswerReadBeforeADropIsNotKept() {
        let cache = UserAnswerCache<String>()
        let before = cache.generation
        cache.drop(["someone else"])
        cache.keep(Self.entry("stale?", sources: ["u"]), for: "u", builtAt: before)
        #expect(cache.answer(for: "u", at: Self.t) == nil)
        cache.keep(Self.entry("fresh", sources: ["u"]), for: "u", builtAt: cache.generation)
        #expect(cache.answer(for: "u", at: Self.t) == "fresh")
    }

    @Test func theCacheHoldsAtMostItsCapacity() {
        let cache = UserAnswerCache<String>(capacity: 8)
        for i in 0..<100 { cache.keep(Self.entry("\(i)", sources: ["u\(i)", "shared\(i % 3)"]), for: "u\(i)", builtAt: cache.generation) }
        #expect(cache.count <= 8 && cache.count > 0)
        cache.drop(["shared0", "shared1", "shared2"])
        #expect(cache.count == 0, "every kept answer read a shared stream, so every one is dropped")
    }
}
