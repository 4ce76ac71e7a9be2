// ledger-bench: reproducible release-build benchmarks. Run: swift run -c release ledger-bench <name> [args]
import Foundation
import EventStore
import SubscriptionDomain
import Population
import EventCodec
import Projections
import ProjectionStorage
import Ingest

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func temporaryFolder(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "ledger-bench-\(name)-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func residentMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Double(line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0) / 1024
    }
    return 0
}

func benchEventStore(records: Int, batch: Int) throws {
    let dir = temporaryFolder("eventstore")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let users = 100_000
    let filler = Array(String(repeating: "x", count: 150).utf8)
    let log = try EventLog(directory: dir)
    var appendTime = 0.0
    var i = 0
    while i < records {
        let n = min(batch, records - i)
        let chunk = (i..<(i + n)).map { k in
            ProposedRecord(id: "evt_\(k)", stream: "u_\((k &* 7919) % users)", payload: filler)
        }
        appendTime += try seconds { try log.append(chunk) }
        i += n
    }
    let segmentBytes = try FileManager.default.contentsOfDirectory(atPath: dir + "/segments")
        .reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: dir + "/segments/" + $1)[.size] as? Int) ?? 0) }
    print(String(format: "append  %d records (%d B payload + ids) in batches of %d, fsync each: %.2f s, %.0f records/s, %.1f MB/s",
                 records, filler.count, batch, appendTime, Double(records) / appendTime, Double(segmentBytes) / appendTime / 1e6))
    var count = 0
    var payloadBytes = 0
    let readTime = try seconds { try log.forEach { count += 1; payloadBytes += $0.payload.count } }
    print(String(format: "read    %d records, %.0f MB with CRC32C checks: %.3f s, %.2f GB/s, %.0f records/s",
                 count, Double(segmentBytes) / 1e6, readTime, Double(segmentBytes) / readTime / 1e9, Double(count) / readTime))
    var streamRecords = 0
    let rounds = 1000
    let streamTime = try seconds {
        for r in 0..<rounds { streamRecords += try log.records(inStream: "u_\((r * 31) % users)").count }
    }
    print(String(format: "stream  one user's records (avg %.1f) through the index: %.1f µs per read",
                 Double(streamRecords) / Double(rounds), streamTime / Double(rounds) * 1e6))
    var reopened: EventLog?
    let openTime = try seconds { reopened = try EventLog(directory: dir) }
    print(String(format: "reopen  (checked scan, rebuild of id and stream indexes): %.2f s for %d records", openTime, Int(reopened!.head.position)))
    var report: VerificationReport?
    let verifyTime = seconds { report = LogVerifier.verify(directory: dir) }
    print(String(format: "verify  CRC + SHA-256 chain: %.2f s, %.0f MB/s, intact: %@", verifyTime, Double(segmentBytes) / verifyTime / 1e6, report!.isIntact ? "yes" : "no"))
    print(String(format: "peak resident memory: %.0f MiB", residentMiB()))
}

/// Decodes each line and folds it into its user's plan state; each user's state is found by the
/// bytes of their id, as replay finds it (UserTable).
func decodeAndFold(_ lines: [[UInt8]], _ decider: PlanDecider, users: Int) throws -> UserTable<SubscriberState> {
    var states = UserTable<SubscriberState>(capacity: users)
    var decoder = EventCodec.LineDecoder()   // as replay decodes the log's records
    for l in lines {
        try l.withUnsafeBytes { b in
            let e = try decoder.decode(b)
            decider.evolve(&states[slot: states.slot(adding: e.user)], e)
        }
    }
    return states
}

/// Folds events already decoded into their users' plan states.
func fold(_ events: [Event], _ decider: PlanDecider, users: Int) -> UserTable<SubscriberState> {
    var states = UserTable<SubscriberState>(capacity: users)
    for i in events.indices { decider.evolve(&states[slot: states.slot(adding: events[i].user)], events[i]) }
    return states
}

let args = CommandLine.arguments.dropFirst()
switch args.first {
case "hash":
    let data = [UInt8](repeating: 0x61, count: 256 << 20)
    var d = SHA256.Digest.zero
    let t = seconds { d = SHA256.hash(data) }
    print(String(format: "sha256 one 256 MiB buffer: %.0f MB/s (%@)", 268.435456 / t, d.description))
    var c: UInt32 = 0
    let t2 = seconds { c = CRC32C.checksum(data) }
    print(String(format: "crc32c one 256 MiB buffer: %.2f GB/s (%08x)", 0.268435456 / t2, c))
    let small = [UInt8](repeating: 0x61, count: 280)
    let t3 = seconds { for _ in 0..<200_000 { d = SHA256.hash(small) } }
    print(String(format: "sha256 of 280-byte bodies: %.0f hashes/s", 200_000 / t3))
case "fold":
    // fold [USERS] [VIEWS]: decode, then decode + fold, of a generated population (about 5 events
    // per user, plus VIEWS extra paywall views each: `fold 100000 5` is 1.0 M events for 100,000 users).
    let users = args.dropFirst().first.flatMap { Int($0) } ?? 200_000
    var generator = PopulationGenerator(profile: .handz, users: users, seed: 42)
    generator.extraPaywallViews = args.dropFirst(2).first.flatMap { Int($0) } ?? 0
    let lines: [[UInt8]] = generator.events().map { Array(EventCodec.encode($0).utf8) }
    let bytes = lines.reduce(0) { $0 + $1.count }
    var decoded = 0
    var decoder = EventCodec.LineDecoder()
    let decodeTime = try seconds { for l in lines { _ = try l.withUnsafeBytes { try decoder.decode($0) }; decoded += 1 } }
    print(String(format: "decode  %d events (%.0f B avg) with timestamps: %.3f s, %.0f events/s", decoded, Double(bytes) / Double(lines.count), decodeTime, Double(decoded) / decodeTime))
    let decider = PlanDecider(profile: .handz)
    var states = UserTable<SubscriberState>()
    let foldTime = try seconds { states = try decodeAndFold(lines, decider, users: users) }
    let decodedEvents = try lines.map { try EventCodec.decode($0) }
    let foldOnly = seconds { _ = fold(decodedEvents, decider, users: users) }
    print(String(format: "fold only (events already decoded): %.3f s, %.0f events/s", foldOnly, Double(lines.count) / foldOnly))
    let instant = Timestamp.parse("2026-06-01T00:00:00Z")!
    var pro = 0
    for s in states.folds where decider.view(s, at: instant).planState == .pro { pro += 1 }
    print(String(format: "decode+fold %d events for %d users, one core: %.3f s, %.0f events/s (%d pro on 2026-06-01)", lines.count, states.count, foldTime, Double(lines.count) / foldTime, pro))
case "foldloop":
    // foldloop [USERS] [VIEWS]: decode + fold as in `fold`, 5 rounds (for profiling).
    let users = args.dropFirst().first.flatMap { Int($0) } ?? 100_000
    var generator = PopulationGenerator(profile: .handz, users: users, seed: 42)
    generator.extraPaywallViews = args.dropFirst(2).first.flatMap { Int($0) } ?? 5
    let lines: [[UInt8]] = generator.events().map { Array(EventCodec.encode($0).utf8) }
    let decider = PlanDecider(profile: .handz)
    let t = try seconds {
        for _ in 0..<5 { _ = try decodeAndFold(lines, decider, users: users) }
    }
    print(String(format: "decode+fold %d events x5: %.3f s, %.0f events/s", lines.count, t, Double(lines.count * 5) / t))
case "foldonly":
    // foldonly [USERS]: the fold alone over pre-decoded events, 5 passes (for profiling).
    let users = args.dropFirst().first.flatMap { Int($0) } ?? 200_000
    let events = PopulationGenerator(profile: .handz, users: users, seed: 42).events()
    let decider = PlanDecider(profile: .handz)
    var total = 0
    let t = seconds {
        for _ in 0..<5 {
            total += fold(events, decider, users: users).count
        }
    }
    print(String(format: "fold only %d events x5: %.3f s, %.0f events/s (%d)", events.count, t, Double(events.count * 5) / t, total))
case "decode":
    // decode [USERS]: decode-only loop over generated lines, repeated 5 times (for profiling).
    let users = args.dropFirst().first.flatMap { Int($0) } ?? 100_000
    let lines = PopulationGenerator(profile: .handz, users: users, seed: 42).events().map { Array(EventCodec.encode($0).utf8) }
    var n = 0
    // Through the raw-buffer entry point, as replay calls it on each record's payload.
    let t = try seconds {
        for _ in 0..<5 {
            var decoder = EventCodec.LineDecoder()
            for l in lines {
                try l.withUnsafeBytes { b in let e = try decoder.decode(b); n &+= e.id.utf8.count }
            }
        }
    }
    print(String(format: "decode %d lines x5: %.3f s, %.0f events/s (%d)", lines.count, t, Double(lines.count * 5) / t, n))
case "populate":
    // populate N DIR [VIEWS]: generate N users (profile handz, seed 1; VIEWS extra paywall views each) into the log DIR.
    guard args.count >= 3, let users = Int(args[args.startIndex + 1]) else { print("usage: ledger-bench populate USERS DIR [EXTRA_VIEWS]"); exit(2) }
    let dir = args[args.startIndex + 2]
    var generator = PopulationGenerator(profile: .handz, users: users, seed: 1)
    generator.extraPaywallViews = args.count >= 4 ? Int(args[args.startIndex + 3]) ?? 0 : 0
    var events = 0
    let importTime = try seconds {
        var logOptions = EventLog.Options()
        logOptions.secondaryKeys = Replay.secondaryKeys   // as replay-tool opens it, so its index files are used
        let log = try EventLog(directory: dir, options: logOptions)
        let importer = EventImporter(log: log)
        var summary = EventImporter.Summary()
        var chunk: [UInt8] = []
        for u in 0..<users {
            for e in generator.events(forUser: u) { EventCodec.encode(e, into: &chunk); chunk.append(0x0A) }
            if chunk.count > 8 << 20 || u == users - 1 {
                try importer.importLines(chunk, file: "generated", into: &summary)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        events = summary.appended
    }
    print(String(format: "import  %d generated events for %d users (decode, encode, append in batches of 1000, fsync each): %.1f s, %.0f events/s",
                 events, users, importTime, Double(events) / importTime))
case "scan":
    // scan DIR: one checked pass over every record (framing and CRC), hashing each record's stream.
    guard args.count >= 2 else { print("usage: ledger-bench scan DIR"); exit(2) }
    var logOptions = EventLog.Options()
    logOptions.indexes = false
    let log = try EventLog(directory: args[args.startIndex + 1], access: .read, options: logOptions)
    var n = 0
    var h: UInt64 = 0
    let t = try seconds { try log.forEach { n += 1; h &+= FNV1a.hash($0.stream) } }
    print(String(format: "scan %d records with CRC checks: %.2f s, %.0f records/s (%d)", n, t, Double(n) / t, h & 0xFF))
case "rebuild":
    // rebuild DIR P [log|cache] [AT]: full rebuild of every read model from the log DIR with P
    // partitions, through the event cache (built first if missing or stale), or with `log` from
    // the JSON records, as of AT (default 2026-06-01T00:00:00Z).
    guard args.count >= 2 else { print("usage: ledger-bench rebuild DIR [PARTITIONS] [log|cache] [AT]"); exit(2) }
    let dir = args[args.startIndex + 1]
    let at = args.count >= 5 ? args[args.startIndex + 4] : "2026-06-01T00:00:00Z"
    var options = ReplayOptions(profile: .handz, asOf: Timestamp.parse(at)!)
    options.partitions = args.count >= 3 ? Int(args[args.startIndex + 2]) ?? 1 : 1
    options.eventCache = !(args.count >= 4 && args[args.startIndex + 3] == "log")
    options.buildEventCache = options.eventCache
    var snapshot: LedgerSnapshot?
    let t = try seconds { snapshot = try Replay.run(directory: dir, options: options) }
    let events = Double(snapshot!.headPosition)
    let foldPeak = residentMiB()
    var users = 0
    let snap = snapshot!
    let readModels = seconds { users = snap.userIDs.count; _ = snap.counts(); _ = snap.funnel(); _ = snap.notifications(); _ = snap.revenue() }
    if ProcessInfo.processInfo.environment["LEDGER_BENCH_PARTS"] != nil {
        print(String(format: "  ids %.2f s, counts %.2f s, funnel %.2f s, notifications %.2f s, revenue %.2f s",
                     seconds { _ = snap.userIDs }, seconds { _ = snap.counts() }, seconds { _ = snap.funnel() },
                     seconds { _ = snap.notifications() }, seconds { _ = snap.revenue() }))
    }
    print(String(format: "rebuild (%@) as of \(at): %.0f events, %d users, %d partition(s): fold %.2f s, %.0f events/s (peak RSS %.0f MiB); read models from the folds %.2f s (peak RSS %.0f MiB)",
                 options.eventCache ? "event cache" : "log", events, users, options.partitions, t, events / t, foldPeak, readModels, residentMiB()))
case "partitions":
    // partitions AT DIR…: each partition log folded alone, one core, from its JSON records (as one
    // machine per partition would), its reports made, then the reports of all merged.
    guard args.count >= 3 else { print("usage: ledger-bench partitions AT DIR…"); exit(2) }
    var options = ReplayOptions(profile: .handz, asOf: Timestamp.parse(args[args.startIndex + 1])!)
    options.partitions = 1
    options.eventCache = false
    var counts: [[String: Int]] = [], funnels: [FunnelReport] = [], revenues: [RevenueReport] = [], schedules: [[ScheduledNotification]] = []
    var total = 0.0, slowest = 0.0, events = 0.0
    for dir in args.dropFirst(2) {
        var snapshot: LedgerSnapshot?
        let fold = try seconds { snapshot = try Replay.run(directory: dir, options: options) }
        let snap = snapshot!
        let reports = seconds { counts.append(snap.counts()); funnels.append(snap.funnel()); revenues.append(snap.revenue()); schedules.append(snap.notifications()) }
        let n = Double(snap.headPosition)
        events += n
        total += fold + reports
        slowest = max(slowest, fold + reports)
        print(String(format: "partition %@: %.0f events, fold %.2f s (%.0f events/s), reports %.3f s", dir, n, fold, n / fold, reports))
    }
    var scheduled = 0
    let merge = seconds {
        _ = LedgerSnapshot.mergingCounts(counts); _ = FunnelReport.merging(funnels); _ = RevenueReport.merging(revenues)
        scheduled = ScheduledNotification.merging(schedules).count
    }
    print(String(format: "%d partition(s), %.0f events: sum of folds + reports %.2f s, slowest partition %.2f s; merge of counts, funnel, revenue and %d notifications %.4f s",
                 args.count - 2, events, total, slowest, scheduled, merge))
case "eventstore":
    try benchEventStore(records: args.dropFirst().first.flatMap { Int($0) } ?? 1_000_000, batch: args.dropFirst(2).first.flatMap { Int($0) } ?? 1000)
default:
    print("usage: ledger-bench eventstore [records] [batch] | hash | decode [users] | fold [users] [views] | foldloop [users] [views] | foldonly [users] | populate USERS DIR [VIEWS] | scan DIR | rebuild DIR [PARTITIONS] [log|cache] [AT] | partitions AT DIR…")
}
