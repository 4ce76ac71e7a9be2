import Foundation
import EventStore
import Platform
import Projections
import ProjectionStorage
import SubscriptionDomain
import LogProofs
import StoreAdapters
import Ingest
import Reports

/// Commands that write or check the log: import, export, verify, cache.
enum LogCommands {
    static let importCommand = CommandSpec(
        name: "import", summary: "append events from JSON Lines files (- for stdin); exit 1 if any line was rejected",
        positionals: "FILE…", options: [Common.log, Common.profile, OptionSpec(name: "--format", value: "table|json", help: "summary format (default: table)"),
                                        OptionSpec(name: "--from", value: "canonical|appstore|revenuecat", help: "what the lines are: our events (default), App Store Server Notifications V2 ({\"signedPayload\": JWS}, verified), or RevenueCat webhooks"),
                                        AppleSignature.rootOption, AppleSignature.unverifiedOption,
                                        OptionSpec(name: "--follow", value: nil, help: "stream: read a never-ending stdin (FILE must be -), commit a group whenever the input pauses, acknowledge each with one JSON line"),
                                        OptionSpec(name: "--partition", value: "p/N", help: "append only the events whose user is in partition p of N under Kafka's default partitioner; count the others as skipped")],
        details: """
            Rejected lines never enter the log: each is reported as file:line: reason on stderr and kept verbatim
            in DIR/rejected/, next to a .reasons file, as it is found. Good lines of the same file still go in.
            A line over twice the log's record limit (2 MiB) is rejected unread. If appending stops part way (a full
            disk), what was committed is summarised, then the error names the first line that did not go in; exit 1.
            Store payload types that carry nothing for the ledger (TEST, CONSUMPTION_REQUEST, …) are skipped and counted.
            An import into a log without records also writes the event cache (DIR/projections/events.cache) from the
            events it decoded, so the first report does not decode the log again (REPLAY_TOOL_IMPORT_EVENT_CACHE=off: not).

            import --follow - reads standard input until it ends, or until SIGTERM or SIGINT, committing a group of
            lines as soon as the input pauses (within milliseconds; at most 1,000 events a group). After each group is
            durable it prints one line: {\"first\",\"last\",\"appended\",\"duplicates\",\"rejected\",\"skipped\",\"lines\":[from,to]}
            (first and last: the positions appended, null if none). A line whose end has not arrived at a signal is left
            out, unacknowledged. Only stdin can be followed: tail -n +1 -F FILE | replay-tool import --follow -.

            import --partition p/N appends only the events whose user u has (murmur2(utf8(u)) & 0x7fffffff) % N == p, as
            Kafka's Java client partitions a topic keyed by user id; the others are counted as skipped. The first such
            import declares the log partition p/N (DIR/partition); later imports into it must name the same p/N, and the
            log refuses any other user. Store payloads (--from) are partitioned by the user they resolve to against the
            partition's own users (docs/scaling.md: aliases known in another partition are not seen).
            """
    ) { a in
        guard !a.positionals.isEmpty else { throw ToolError.usage("import needs at least one FILE (or - for stdin)") }
        let follow = a.has("--follow")
        if follow && a.positionals != ["-"] {
            throw ToolError.usage("--follow reads standard input only: give - as the one FILE (to follow a file: tail -n +1 -F FILE | replay-tool import --follow -)")
        }
        if follow, let f = a.value("--format"), f != "json" {
            throw ToolError.usage("--follow acknowledges in JSON lines: --format '\(f)' does not apply (leave it out, or give json)")
        }
        let format = try Common.format(a, allowed: [.table, .json])
        let sourceName = a.value("--from") ?? "canonical"
        guard let source = PayloadSource(rawValue: sourceName) else {
            throw ToolError.usage("--from '\(sourceName)' is not one of canonical, appstore, revenuecat")
        }
        let profile = try Common.profile(a.value("--profile"))
        let partition = try Common.partition(a)
        for path in a.positionals { try InputFile.check(path) }
        let log = try Common.openLog(a, access: .write)
        // The first import names the log's app; an import under another app's catalog is refused.
        try Common.checkApp(profile, directory: Common.logDirectory(a))
        try log.declareApp(profile.appDeclaration)
        if let reason = log.recovery.reason { Console.err("replay-tool import: recovered the log: cut \(log.recovery.truncatedBytes) bytes (\(reason))") }
        if let partition {
            try log.claim(partition)
        } else if let declared = try EventLog.declaredPartition(directory: Common.logDirectory(a)) {
            throw ToolError.usage("this log holds partition \(declared) (\(Common.logDirectory(a))/\(EventLog.partitionFileName)): import into it with --partition \(declared)")
        }
        var importer = EventImporter(log: log)
        importer.source = source
        if source == .appstore { importer.jwsOpener = try AppleSignature.opener(a) }
        else if a.has("--unverified-jws") || !a.all("--apple-root").isEmpty { throw ToolError.usage("--apple-root and --unverified-jws apply to --from appstore") }
        importer.profile = profile
        importer.partition = partition
        // What was appended is indexed in memory; the index files are brought up to the head at the end.
        defer { try? log.saveIndexes() }
        if follow { return try FollowImport.run(importer: importer, logDirectory: Common.logDirectory(a)) }
        importer.batchSize = EventImporter.fileBatchSize
        // Tests make batches small to kill an import with many batches in flight.
        if let n = ProcessInfo.processInfo.environment["REPLAY_TOOL_IMPORT_BATCH"].flatMap({ Int($0) }), n > 0 { importer.batchSize = n }
        // An import into an empty log gathers the event cache as it appends (ImportedEventCache);
        // REPLAY_TOOL_IMPORT_EVENT_CACHE=off leaves it to the first rebuild (to compare, or to measure).
        let cache = ProcessInfo.processInfo.environment["REPLAY_TOOL_IMPORT_EVENT_CACHE"] == "off" ? nil : ImportedEventCache(log: log)
        if let cache { importer.batchAppended = { cache.add($0, $1, $2) } }
        var summary = EventImporter.Summary()
        var kept = RejectedLinesFile(logDirectory: Common.logDirectory(a))
        var failure: (any Error)?
        do {
            for path in a.positionals {
                let input = try InputFile(path)
                try importer.importLines(file: path == "-" ? "<stdin>" : path, read: input.read(into:), rejected: &kept, into: &summary) { n in
                    Console.progress("\(path): \(n) events")
                }
            }
        } catch {
            failure = error
        }
        Console.endProgress()
        if let cache, failure == nil, summary.appended > 0 { writeEventCache(cache, log: log) }
        do { try kept.close() } catch { failure = failure ?? error }
        // What was committed is summarised even when appending stopped part way; the error follows.
        if format == .json {
            Console.out(JSON.object([("appended", .int(summary.appended)), ("duplicates", .int(summary.duplicates)),
                                     ("rejected", .int(summary.rejected)), ("rejectedFile", .text(kept.path)), ("skipped", .int(summary.skippedCount)),
                                     ("skippedByType", .object(summary.skipped.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) })),
                                     ("skippedOtherPartitions", .int(summary.otherPartitions)), ("unverifiedJWS", .int(summary.unverifiedJWS))]).rendered + "\n")
        } else {
            let reasons = summary.skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                + (partition == nil ? [] : ["other partitions \(summary.otherPartitions)"])
            let skipped = source == .canonical && partition == nil ? "" : ", skipped \(summary.skippedCount)" + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: ", ") + ")")
            Console.out("appended \(summary.appended), duplicates \(summary.duplicates), rejected \(summary.rejected)\(skipped)\n")
            if summary.unverifiedJWS > 0 {
                Console.out("\(summary.unverifiedJWS) line(s) taken from signed JWS without verifying the signature (docs/importers.md)\n")
            }
            if let keptAt = kept.path { Console.out("rejected lines kept verbatim in \(keptAt)\n") }
        }
        if let failure { throw failure }
        return summary.rejected == 0 ? 0 : 1
    }

    /// Writes the event cache an import gathered. The import stands either way: a cache not
    /// written is said on stderr, and rebuilds build it from the log where they can.
    private static func writeEventCache(_ cache: ImportedEventCache, log: EventLog) {
        let why: String
        do {
            switch try cache.write(log: log) {
            case .success: return
            case .failure(let abandoned): why = abandoned.reason
            }
        } catch {
            why = "\(error)"
        }
        Console.err("replay-tool import: the event cache was not written (\(why)); the import stands, and rebuilds build the cache from the log where they can")
    }

    /// verify's `segments:` line: how many were read, and of how many when damage stopped the check.
    private static func segmentsLine(_ report: VerificationReport) -> String {
        guard report.segments < report.segmentsInLog else { return "\(report.segments) (\(report.bytes) bytes)" }
        return "\(report.segments) of \(report.segmentsInLog) (\(report.bytes) bytes; the check stops at the damage, so the rest were not read)"
    }

    /// verify's `records:` line: how many, and which positions this run checked.
    private static func recordsLine(_ report: VerificationReport) -> String {
        let n = report.records, head = report.head.position
        guard n > 0 else { return "0 (no committed batch)" }
        guard let mark = report.since?.position else { return "\(n) (positions 1…\(head), hash chain checked)" }
        if mark > head { return "\(n) (positions 1…\(head) read back; the damage lies before position \(mark), where the last verify ended)" }
        if mark == head { return "\(n) (nothing appended since the last verify; position \(mark) hashed again)" }
        return "\(n) (positions \(mark + 1)…\(head) checked now; 1…\(mark) by an earlier verify, position \(mark) hashed again)"
    }

    static let export = CommandSpec(
        name: "export", summary: "print the log as JSON Lines, with position, version and recorded",
        positionals: nil, options: [Common.logs, Common.profile, OptionSpec(name: "--from-position", value: "N", help: "start at this position")] + TableExport.options,
        details: TableExport.details
    ) { a in
        if a.has("--table") { return try TableExport.run(a) }
        try TableExport.refuseTableOptions(a)
        let from = try Common.number(a, "--from-position", in: 1...UInt64.max) ?? 1
        let log = try Common.openLog(a)
        var out: [UInt8] = []
        try log.forEach(from: from) { r in
            out.removeAll(keepingCapacity: true)
            // The line is the Merkle tree's leaf for this record (docs/proofs.md): one encoding for both.
            try ExportLine.encode(r, into: &out)
            out.append(0x0A)
            Console.out(String(decoding: out, as: UTF8.self))
        }
        return 0
    }

    static let verify = CommandSpec(
        name: "verify", summary: "check every frame and the hash chain; print the head hash; exit 1 naming any damage",
        positionals: nil, options: [Common.log, Common.profile, Common.tableOrJSON,
                                    OptionSpec(name: "--since-last", value: nil, help: "a scrub: check only what was appended since the last intact verify (DIR/verified)")],
        details: """
            An intact verify records its head in DIR/verified; --since-last then reads only the segments from the one
            holding the next position, checks that the recorded head still hashes to its hash, and checks every record after
            it (frames, positions, chain; stream versions only in a full verify). Without a readable DIR/verified it is a full verify.
            """
    ) { a in
        let format = try Common.format(a, allowed: [.table, .json])
        let dir = Common.logDirectory(a)
        let since = a.has("--since-last") ? try VerifiedMark.read(directory: dir) : nil
        let report = LogVerifier.verify(directory: dir, since: since)
        if let damage = report.damage, damage.code == .invalidArgument { throw ToolError.input(damage.description) }
        // The next scrub starts here (a derived file, named by what it says; ignored if it does not check).
        if report.isIntact && report.head.position > 0 && report.head.hash != .zero {
            do { try VerifiedMark.write(report.head, directory: dir) } catch let e as any LocatedError { throw ToolError.input("cannot record the verified head: \(e.description)") }
        }
        if format == .json {
            Console.out(JSON.object([
                ("intact", .bool(report.isIntact)), ("segments", .int(report.segments)), ("segmentsInLog", .int(report.segmentsInLog)),
                ("records", .int(Int(report.records))),
                ("bytes", .int(report.bytes)), ("headPosition", .int(Int(report.head.position))), ("headHash", .string(report.head.hash.description)),
                ("tail", .text(report.tail)), ("damage", .text(report.damage?.description)),
                ("committedPosition", report.committedHead.map { .int(Int($0.position)) } ?? .null),
                ("partition", .text(report.partition?.description)),
                ("checkedPosition", .int(Int(report.checkedPosition))),
                ("since", report.since.map { .int(Int($0.position)) } ?? .null),
            ]).rendered + "\n")
        } else {
            Console.out("""
            log:       \(dir)
            segments:  \(segmentsLine(report))
            records:   \(recordsLine(report))
            head hash: \(report.head.hash)\(report.damage == nil ? "" : " (of position \(report.head.position), the last checked before the damage: not the log's head)")

            """)
            if let committed = report.committedHead {
                Console.out("committed: position \(committed.position) (segments/committed-head; records up to it must all be there)\n")
            } else if report.records > 0 {
                Console.out("committed: no checkpoint yet (the next append writes segments/committed-head)\n")
            }
            if let p = report.partition { Console.out("partition: \(p) (\(StreamPartition.partitionerName); every stream checked to be in it)\n") }
            if report.damage != nil, report.checkedPosition > report.records {
                Console.out("checked:   positions \(report.records + 1)…\(report.checkedPosition) whole, in the batch the damage cuts off before its commit\n")
            }
            if let tail = report.tail {
                // Without a committed head, whole records past the last commit flag are not cut by a writer.
                let kept = report.committedHead == nil && tail.contains("never committed")
                Console.out("tail:      \(tail) (\(kept ? "no committed head says whether they were committed: a writer leaves them; see replay-tool recover" : "cut on the next open for append"))\n")
            }
            Console.out(report.isIntact ? "intact:    yes\n" : "intact:    NO\n")
        }
        if let damage = report.damage {
            Console.err("damage: \(damage.description)")
            return 1
        }
        return 0
    }

    static let recover = CommandSpec(
        name: "recover", summary: "say what accepting a damaged or cut log would keep and drop; --accept-loss does it, keeping the dropped bytes",
        positionals: nil, options: [Common.log, Common.profile, Common.tableOrJSON,
                                    OptionSpec(name: "--accept-loss", value: nil, help: "cut the log after the last good record; the dropped bytes go to DIR/recovered/")],
        details: """
        Kept: every whole record from position 1 whose CRCs and hash-chain link check, up to the first damage, and never
        past a readable committed head. Without --accept-loss nothing is written: exit 0 if nothing would be dropped, 1 if
        something would. With it, the dropped bytes are first copied (and synced) to DIR/recovered/, then the log is cut,
        segments/committed-head is set to the last kept record and the index files are dropped (derived, rebuilt).
        """
    ) { a in
        let format = try Common.format(a, allowed: [.table, .json])
        let dir = Common.logDirectory(a)
        try Common.requireLog(dir)
        let plan = try LogRecovery.plan(directory: dir)
        var kept: [String] = []
        let accept = a.has("--accept-loss")
        if accept && plan.changesLog {
            let stamp = Common.now().description.replacingOccurrences(of: ":", with: "")
            kept = try LogRecovery.accept(plan, directory: dir, stamp: stamp)
        }
        if format == .json {
            Console.out(JSON.object([
                ("keepPosition", .int(Int(plan.keep.position))), ("keepHash", .string(plan.keep.hash.description)),
                ("problem", .text(plan.problem)), ("droppedBytes", .int(plan.droppedBytes)), ("droppedRecords", .int(Int(plan.droppedRecords))),
                ("cutSegment", .text(plan.cutSegment)), ("cutOffset", plan.cutSegment == nil ? .null : .int(plan.cutOffset)),
                ("laterSegments", .array(plan.laterSegments.map { .string($0) })), ("accepted", .bool(accept && plan.changesLog)),
                ("cutSegmentWhole", .bool(plan.cutSegmentWhole)), ("lostCommittedRecords", .int(Int(plan.lostCommittedRecords))),
                ("keptFiles", .array(kept.map { .string($0) })),
            ]).rendered + "\n")
        } else {
            Console.out("log:       \(dir)\n")
            if let problem = plan.problem { Console.out("problem:   \(problem)\n") }
            Console.out("keeps:     positions 1…\(plan.keep.position) (head hash \(plan.keep.hash))\n")
            if let cut = plan.cutSegment {
                let from = plan.cutSegmentWhole ? "the whole of \(cut)" : "\(cut)@\(plan.cutOffset)"
                let later = plan.laterSegments.isEmpty ? "" : " and \(plan.laterSegments.count) later segment(s)"
                let lost = plan.lostCommittedRecords == 0 ? "" : "; \(plan.lostCommittedRecords) committed record(s) lost (the committed head names position \(plan.keep.position + plan.lostCommittedRecords))"
                Console.out("drops:     \(plan.droppedBytes) bytes from \(from)\(later), holding \(plan.droppedRecords) whole record(s)\(lost)\n")
                Console.out(accept ? "done:      the dropped bytes are kept in \(kept.joined(separator: ", "))\n"
                                   : "to accept: replay-tool recover --log \(dir) --accept-loss (the dropped bytes are kept in \(dir)/recovered/)\n")
            } else {
                Console.out("drops:     nothing\n")
                if plan.changesLog {
                    Console.out(accept ? "done:      segments/committed-head now names position \(plan.keep.position)\n"
                                       : "to accept: replay-tool recover --log \(dir) --accept-loss (sets segments/committed-head to position \(plan.keep.position))\n")
                }
            }
        }
        return plan.changesLog && !accept ? 1 : 0
    }

    static let cache = CommandSpec(
        name: "cache", summary: "write the event cache (a binary copy of the events) that later full rebuilds read instead of the JSON",
        positionals: nil, options: [Common.log, Common.profile, Common.tableOrJSON]
    ) { a in
        let format = try Common.format(a, allowed: [.table, .json])
        try Common.requireLog(a)
        let built = try Replay.buildEventCache(directory: Common.logDirectory(a))
        if format == .json {
            Console.out(JSON.object([("events", .int(built.events)), ("bytes", .int(built.bytes))]).rendered + "\n")
        } else {
            Console.out("event cache: \(built.events) events, \(built.bytes) bytes (used by full rebuilds until the log grows)\n")
        }
        return 0
    }
}
