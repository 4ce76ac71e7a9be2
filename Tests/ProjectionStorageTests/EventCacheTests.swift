import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
import Population
import EventCodec
@testable import Projections
@testable import ProjectionStorage
import Platform
import Ingest

/// The event cache: every event reads back as the log's JSON decodes, a rebuild from it folds
/// exactly what a rebuild from the log folds, and a stale or damaged cache is never trusted.
@Suite struct EventCaches {
    /// One event with every `data` field and an unknown one, beside the sample logs.
    static let everyField = #"{"id":"x-1","type":"renewal","user":"zoe","time":"2026-01-09T10:00:00.250Z","source":"store","data":{"product":"handz.pro.monthly","transaction":"z-t2","originalTransaction":"z-t1","expires":"2026-02-09T10:00:00Z","offer":"intro","price":"4.99","currency":"EUR","environment":"sandbox","familyShared":true,"reason":"why","graceExpires":"2026-01-12T10:00:00Z","resumesAt":"2026-03-09T10:00:00.5Z","effective":"next_renewal","to":"amy","quantity":3,"context":"settings","sourceScreen":"home","planState":"pro","trialEligible":false,"trialUsed":true,"plan":"p","errorCode":"e","category":"billing","vendorNote":{"a":[1,"é\n"]}}}"#
    /// A production subscription paused (the newest type and field), and one without `resumesAt`.
    static let paused = [
        #"{"id":"x-2","type":"purchase","user":"yan","time":"2026-01-03T10:00:00Z","source":"store","data":{"product":"handz.pro.monthly","transaction":"y-t1","expires":"2026-02-03T10:00:00Z","price":"9.99","currency":"USD"}}"#,
        #"{"id":"x-3","type":"pause","user":"yan","time":"2026-01-20T10:00:00Z","source":"store","data":{"resumesAt":"2026-03-03T10:00:00Z"}}"#,
        #"{"id":"x-4","type":"pause","user":"zoe","time":"2026-01-21T10:00:00Z"}"#,
    ]

    /// The sample logs of the five apps, a generated population with late and duplicated
    /// deliveries, and the read-model story, each with its profile.
    static func logs() throws -> [(TestLog, Profile)] {
        var out: [(TestLog, Profile)] = []
        for (name, profile) in [("handz", Profile.handz), ("mirrormate", .mirrormate), ("tomo", .tomo), ("howru", .howru), ("sportstime", .sportstime)] {
            let text = String(decoding: FileManager.default.contents(atPath: repositoryRoot + "/events/" + name + ".jsonl")!, as: UTF8.self)
            out.append((try TestLog(text.split(separator: "\n").map(String.init) + [everyField] + paused, profile: profile.lenientDoor), profile))
        }
        out.append((try TestLog(PopulationGenerator(profile: .handz, users: 300, seed: 7).events().map { EventCodec.encode($0) }, batch: 100), .handz))
        out.append((try TestLog(story), .handz))
        return out
    }

    @Test func everyEventReadsBackAsTheLogDecodesItInItsUsersEffectOrder() throws {
        var reordered = 0
        for (log, _) in try Self.logs() {
            let events = try EventLog(directory: log.path, access: .read)
            try EventCache.build(events)
            var cache = try #require(EventCache.reader(log.path, head: events.head))
            let records = try events.records()
            var read: [UInt64: StoredEvent] = [:]
            var users: Set<String> = []
            var event = EventCache.Reader.blank
            while let user = try cache.nextUser(where: { _ in true }) {
                #expect(users.insert(user).inserted, "\(log.path): \(user) comes twice")
                var previous: StoredEvent?
                event.user = user
                while let (position, recorded) = try cache.nextEvent(into: &event) {
                    let stored = StoredEvent(event: event, position: position, recorded: Timestamp(milliseconds: recorded))
                    #expect(read.updateValue(stored, forKey: position) == nil, "position \(position) twice")
                    if let previous {
                        #expect((previous.event.time, previous.position) < (event.time, position), "\(user): not in effect order at \(position)")
                        if previous.position > position { reordered += 1 }
                    }
                    previous = stored
                }
            }
            try cache.finish()
            #expect(read.count == records.count && cache.count == Int(events.head.position))
            for record in records {
                let stored = try #require(read[record.position], "\(log.path) position \(record.position)")
                #expect(stored.event == (try EventCodec.decode(record.payload)), "\(log.path) position \(record.position)")
                #expect(stored.recorded == Timestamp(milliseconds: record.recorded))
            }
        }
        #expect(reordered > 0, "some events arrived late, so some users' events are not in log order")
    }

    /// A partition's walk over the cache reads no event's id (no walk reads one): each user's
    /// events are those a reader with ids gives, in the same order, with an empty id.
    @Test func aWalkOverTheCacheGivesEveryEventAsAReaderDoesButForItsIdWhichItPassesOver() throws {
        for (log, _) in try Self.logs() {
            let events = try EventLog(directory: log.path, access: .read)
            try EventCache.build(events)
            var cache = try #require(EventCache.reader(log.path, head: events.head))
            var withIDs: [String: [Event]] = [:]
            var event = EventCache.Reader.blank
            while let user = try cache.nextUser(where: { _ in true }) {
                event.user = user
                while try cache.nextEvent(into: &event) != nil { withIDs[user, default: []].append(event) }
            }
            try cache.finish()
            var walked: [String: [Event]] = [:]
            for p in 0..<2 {
                try PartitionedWalk.users(inCache: log.path, head: events.head, partition: p, of: 2) { user, events in
                    #expect(walked.updateValue(events, forKey: user) == nil, "\(log.path): \(user) walked twice")
                }
            }
            #expect(walked.keys.sorted() == withIDs.keys.sorted(), "\(log.path)")
            for (user, given) in withIDs {
                let blanked = given.map { e -> Event in
                    var e = e
                    e.id = ""
                    return e
                }
                #expect(walked[user] == blanked, "\(log.path): \(user)")
                #expect(given.allSatisfy { !$0.id.isEmpty }, "\(log.path): \(user): a reader with ids gives them")
            }
        }
    }

    /// Built on two threads (a batch decoded while the one before is encoded), the cache is the
    /// file a build that hands over one event at a time writes, byte for byte, over many batches.
    @Test func aCacheBuiltOnTwoThreadsIsTheFileOneEventAtATimeWrites() throws {
        let lines = PopulationGenerator(profile: .handz, users: 2_500, seed: 29).events().map { EventCodec.encode($0) }
        let log = try TestLog(lines.reversed(), batch: 1_000)
        let events = try EventLog(directory: log.path, access: .read)
        #expect(events.head.position > 3 * 4_096, "more than three batches: \(events.head.position)")
        try EventCache.build(events)
        let piped = try #require(FileManager.default.contents(atPath: EventCache.path(log.path)))
        try FileManager.default.removeItem(atPath: EventCache.path(log.path))
        try EventCache.build(events, pipelined: false)
        let oneByOne = try #require(FileManager.default.contents(atPath: EventCache.path(log.path)))
        #expect(piped == oneByOne)
        #expect(EventCache.reader(log.path, head: events.head) != nil)
    }

    @Test func aRebuildFromTheCacheFoldsWhatTheLogFolds() throws {
        for (log, profile) in try Self.logs() {
            for instant in ["2026-01-05T00:00:00Z", "2026-02-06T12:00:00Z", "2027-01-01T00:00:00Z"] {
                for partitions in [1, 4] {
                    var options = ReplayOptions(profile: profile, asOf: Timestamp.parse(instant)!)
                    options.partitions = partitions
                    options.eventCache = false
                    let fromLog = try Replay.run(directory: log.path, options: options)
                    options.eventCache = true
                    options.buildEventCache = true
                    let fromCache = try Replay.run(directory: log.path, options: options)
                    let context = "\(profile.name) at \(instant), \(partitions) partition(s)"
                    #expect(fromCache.userIDs == fromLog.userIDs, "\(context)")
                    for user in fromLog.userIDs { #expect(fromCache.users[user] == fromLog.users[user], "\(context): \(user)") }
                    #expect(fromCache.counts() == fromLog.counts() && fromCache.funnel() == fromLog.funnel(), "\(context)")
                    #expect(fromCache.notifications() == fromLog.notifications() && fromCache.revenue() == fromLog.revenue(), "\(context)")
                }
            }
            #expect(FileManager.default.fileExists(atPath: EventCache.path(log.path)))
        }
    }

    @Test func aCacheBuiltBeforeTheLogGrewIsBuiltAgain() throws {
        let log = try TestLog(story)
        let at = "2026-03-01T00:00:00Z"
        var options = ReplayOptions(profile: .handz, asOf: Timestamp.parse(at)!)
        #expect(try Replay.run(directory: log.path, options: options).headPosition == UInt64(story.count))
        #expect(!FileManager.default.fileExists(atPath: EventCache.path(log.path)), "not built unless asked")
        options.buildEventCache = true
        _ = try Replay.run(directory: log.path, options: options)
        let before = try #require(try DurableFile.read(path: EventCache.path(log.path)))
        #expect(try log.append([line("99", "refund", "a", "2026-01-20T00:00:00Z", #"{"transaction":"a2"}"#)], file: "more").summary.appended == 1)
        let head = try EventLog(directory: log.path, access: .read).head
        #expect(EventCache.reader(log.path, head: head) == nil)
        let after = try Replay.run(directory: log.path, options: options)
        #expect(after.headPosition == head.position && after.counts()["refund"] == 2)
        #expect(EventCache.reader(log.path, head: head) != nil)
        #expect(try DurableFile.read(path: EventCache.path(log.path)) != before)
    }

    /// Each user's entry gives the types of their events: a reader asked for some types gives
    /// exactly the users with an event of one of them, passing over the others unread.
    @Test func aReaderAskedForSomeTypesGivesTheUsersWithOneOfThemAndPassesOverTheRest() throws {
        let log = try TestLog(PopulationGenerator(profile: .handz, users: 400, seed: 5).events().map { EventCodec.encode($0) })
        let events = try EventLog(directory: log.path, access: .read)
        try EventCache.build(events)
        var byType: [EventType: Set<String>] = [:]
        var eventsOf: [String: Int] = [:]
        for record in try events.records() {
            let e = try EventCodec.decode(record.payload)
            byType[e.type, default: []].insert(e.user)
            eventsOf[e.user, default: 0] += 1
        }
        for wanted: Set<EventType> in [[.billingIssue], [.refund, .transfer], [.purchase], [.pause]] {
            var cache = try #require(EventCache.reader(log.path, head: events.head))
            var given: Set<String> = []
            var event = EventCache.Reader.blank
            while let user = try cache.nextUser(where: { _ in true }, types: EventCache.typeBits(wanted)) {
                given.insert(user)
                var types: Set<EventType> = []
                while try cache.nextEvent(into: &event) != nil { types.insert(event.type) }
                #expect(!types.isDisjoint(with: wanted), "\(user) has none of \(wanted)")
            }
            try cache.finish()
            let users = wanted.reduce(into: Set<String>()) { $0.formUnion(byType[$1] ?? []) }
            #expect(given == users, "\(wanted)")
            // The header's census: per type, the events of the users with one; summed over the types
            // asked, at most every event, and never less than those users' events.
            let census = try #require(EventCache.reader(log.path, head: events.head))
            let perType = wanted.map { t in eventsOf.filter { byType[t]?.contains($0.key) == true }.values.reduce(0, +) }
            let counted = census.eventCount(ofUsersWith: EventCache.typeBits(wanted))
            #expect(counted == min(census.count, perType.reduce(0, +)), "\(wanted)")
            #expect(counted >= eventsOf.filter { users.contains($0.key) }.values.reduce(0, +), "\(wanted)")
        }
        #expect(byType[.billingIssue]?.isEmpty == false && byType[.pause] == nil, "a type some users have, and one nobody has")
    }

    /// The cache of one user, "solo" (a purchase and a paywall view: their entry's types are the
    /// varint 0x81 0x80 0x02), with those three bytes replaced by `types` and the CRC made to match
    /// (a file a faulty writer could make).
    static func soloCache(types: [UInt8]) throws -> (TestLog, EventLog) {
        let lines = [
            #"{"id":"a-1","type":"purchase","user":"solo","time":"2026-01-03T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"s-t1","expires":"2026-02-03T10:00:00Z","price":"9.99","currency":"USD"}}"#,
            #"{"id":"a-2","type":"paywall_viewed","user":"solo","time":"2026-01-02T10:00:00Z","data":{"context":"settings"}}"#,
        ]
        let log = try TestLog(lines)
        let events = try EventLog(directory: log.path, access: .read)
        try EventCache.build(events)
        let path = EventCache.path(log.path)
        var bytes = try #require(try DurableFile.read(path: path))
        // The entry: "solo", 2 events, the types purchase (bit 0) and paywall_viewed (bit 15).
        let entry: [UInt8] = [4] + Array("solo".utf8) + [2, 0x81, 0x80, 0x02]
        let at = try #require((0...(bytes.count - entry.count)).first { Array(bytes[$0..<($0 + entry.count)]) == entry })
        bytes.replaceSubrange((at + entry.count - 3)..<(at + entry.count), with: types)
        let body = Array(bytes.dropLast(4))
        let crc = CRC32C.checksum(body)
        try DurableFile.replace(path: path, with: body + [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)])
        return (log, events)
    }

    /// An entry whose types are not those of the user's events is refused when they are read,
    /// even in a file whose CRC matches.
    @Test func anEntryWhoseTypesAreNotThoseOfItsEventsIsRefused() throws {
        let (log, events) = try Self.soloCache(types: [0x80, 0x80, 0x02])   // paywall_viewed alone
        var cache = try #require(EventCache.reader(log.path, head: events.head))
        var event = EventCache.Reader.blank
        #expect(try cache.nextUser(where: { _ in true }) == "solo")
        #expect(throws: ProjectionReader.Unreadable.self) { while try cache.nextEvent(into: &event) != nil {} }
    }

    /// An entry that gives no type at all is refused where it is met, even in a file whose CRC
    /// matches: a reader would otherwise pass over its user unread, and the user would be missing without a word.
    @Test func anEntryThatGivesNoTypeIsRefusedWhereItIsMet() throws {
        let (log, events) = try Self.soloCache(types: [0x80, 0x80, 0x00])   // 0 in as many bytes
        var cache = try #require(EventCache.reader(log.path, head: events.head))
        #expect(throws: ProjectionReader.Unreadable.self) { _ = try cache.nextUser(where: { _ in true }) }
    }

    @Test func aDamagedCacheIsNeverTrusted() throws {
        let log = try TestLog(PopulationGenerator(profile: .handz, users: 40, seed: 3).events().map { EventCodec.encode($0) })
        let head = try EventLog(directory: log.path, access: .read).head
        var options = ReplayOptions(profile: .handz, asOf: Timestamp.parse("2026-04-01T00:00:00Z")!)
        options.eventCache = false
        let truth = try Replay.run(directory: log.path, options: options)
        options.eventCache = true
        options.buildEventCache = true
        _ = try Replay.run(directory: log.path, options: options)
        let path = EventCache.path(log.path)
        let good = try #require(try DurableFile.read(path: path))
        var rng = TestKit.SplitMix64(seed: 11)
        for round in 0..<200 {
            var bad = good
            let at = Int.random(in: 0..<bad.count, using: &rng)
            bad[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
            if round % 20 == 0 { bad = Array(bad.prefix(at)) }
            try DurableFile.replace(path: path, with: bad)
            #expect(throws: (any Error).self, "damage at \(at)") {
                guard var cache = EventCache.reader(log.path, head: head) else { throw ProjectionError(position: 0, reason: "refused at open") }
                var event = EventCache.Reader.blank
                while try cache.nextUser(where: { _ in true }) != nil {
                    while try cache.nextEvent(into: &event) != nil {}
                }
                try cache.finish()
            }
        }
        // A rebuild over a damaged cache answers from the log and drops the cache for the next one to rebuild.
        try DurableFile.replace(path: path, with: Array(good.dropLast(1)) + [good.last! ^ 1])
        let answer = try Replay.run(directory: log.path, options: options)
        #expect(answer.counts() == truth.counts() && answer.revenue() == truth.revenue() && answer.userIDs == truth.userIDs)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
