import Foundation
import EventStore
import Projections
import SubscriptionDomain
import Population
import EventCodec
import Platform
import Reports

/// Commands around the log: generate, demo, profiles.
enum ToolCommands {
    static let generate = CommandSpec(
        name: "generate", summary: "a realistic synthetic population as JSON Lines (same seed, same file)", positionals: nil,
        options: [Common.profile, OptionSpec(name: "--users", value: "N", help: "number of users"),
                  OptionSpec(name: "--seed", value: "S", help: "random seed (default 1)"),
                  OptionSpec(name: "--out", value: "FILE", help: "write here instead of stdout (- is stdout); a regular file only"),
                  // Accepted as before (scripts pass it to every command), but generate reads and writes no log.
                  OptionSpec(name: "--log", value: "DIR", help: "ignored: generate reads and writes no log (import the file into one)")]
    ) { a in
        guard let users = try Common.number(a, "--users", in: 1...UInt64(Int.max)) else { throw ToolError.usage("generate needs --users N (a positive integer)") }
        let n = Int(users)
        let seed = try Common.number(a, "--seed", in: 0...UInt64.max) ?? 1
        let generator = PopulationGenerator(profile: try Common.profile(a.value("--profile")), users: n, seed: seed)
        // `-` is standard output, as for import's input.
        var file: OutputFile?
        if let path = a.value("--out"), path != "-" {
            do { file = try OutputFile(path: path) } catch let e as any LocatedError { throw ToolError.input(e.description) }
        }
        var chunk: [UInt8] = []
        for u in 0..<n {
            for e in generator.events(forUser: u) {
                EventCodec.encode(e, into: &chunk)
                chunk.append(0x0A)
            }
            if chunk.count > 1 << 20 || u == n - 1 {
                if let file {
                    do { try file.write(chunk) } catch let e as any LocatedError { throw ToolError.input("cannot write the events: \(e.description)") }
                } else {
                    Console.out(bytes: chunk)
                }
                chunk.removeAll(keepingCapacity: true)
                Console.progress("generated \(u + 1) of \(n) users")
            }
        }
        Console.endProgress()
        do { try file?.commit() } catch let e as any LocatedError { throw ToolError.input("cannot write the events: \(e.description)") }
        return 0
    }

    static let profiles = CommandSpec(
        name: "profiles", summary: "the built-in profiles; 'profiles show NAME' prints one as JSON (a template for your own)",
        positionals: "[show NAME]", options: [Common.log, Common.profile, OptionSpec(name: "--format", value: "table|json", help: "list format")]
    ) { a in
        if a.positionals.first == "show" {
            guard a.positionals.count == 2 else { throw ToolError.usage("profiles show needs a NAME") }
            Console.out(try Common.profile(a.positionals[1]).encodedJSON() + "\n")
            return 0
        }
        guard a.positionals.isEmpty else { throw ToolError.usage("unknown profiles subcommand '\(a.positionals[0])' (show NAME)") }
        if try Common.format(a, allowed: [.table, .json]) == .json {
            Console.out(JSON.array(Profile.builtIn.map { .string($0.name) }).rendered + "\n")
            return 0
        }
        Console.out(TextTable(headers: ["name", "app", "products", "trial", "billing grace", "unverified grace", "commission", "family sharing"],
                              rows: Profile.builtIn.map { p in
            [p.name, p.app, p.products.map(\.id).joined(separator: " "), "\(p.trialDays) d", "\(p.billingGraceDays) d",
             "\(p.unverifiedGraceHours) h", "\(p.commissionPercent)%", p.familySharing ? "yes" : "no"]
        }).aligned)
        return 0
    }

    /// The instant the demo asks its questions at: mid-story for the sample logs.
    static let demoInstant = "2026-02-06T12:00:00Z"

    static let demo = CommandSpec(
        name: "demo", summary: "import the sample logs of events/ into a temporary log and show states, a history, the funnel and the schedule",
        positionals: nil, options: [Common.log, Common.profile, OptionSpec(name: "--events", value: "DIR", help: "sample folder (default: ./events)"),
                                    OptionSpec(name: "--at", value: "TIME", help: "as of (default: \(demoInstant))")]
    ) { a in
        let folder = a.value("--events") ?? "events"
        let at = a.value("--at") ?? demoInstant
        guard PlatformDirectory.isDirectory(folder), let names = try? PlatformDirectory.list(folder).filter({ $0.hasSuffix(".jsonl") }).sorted(), !names.isEmpty else {
            throw ToolError.input("\(folder): no sample logs (*.jsonl) here; run from the repository root or pass --events DIR")
        }
        let temp = NSTemporaryDirectory() + "replay-demo-\(getpid())-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: temp) }
        var failures = 0
        func show(_ args: [String]) {
            Console.out("\n$ replay-tool " + args.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ") + "\n")
            if runTool(args) != 0 { failures += 1 }
        }
        for name in names {
            let profile = String(name.dropLast(6))
            let log = temp + "/" + profile
            Console.out("\n== \(profile) ==\n")
            // Each sample is imported under its own app's profile (the catalog check at the door).
            let known = Profile.named(profile) != nil ? profile : "handz"
            if known != profile { Console.out("(no app profile is named '\(profile)': \(name) is imported under handz)\n") }
            show(["import", "--log", log, "--profile", known, folder + "/" + name])
            guard profile == "handz" else {
                show(["counts", "--log", log, "--profile", known, "--at", at, "--format", "csv"])
                continue
            }
            for user in ["alice", "bob", "dora", "erin"] {
                show(["state", "--log", log, "--user", user, "--at", at, "--format", "json"])
            }
            show(["history", "--log", log, "--user", "carol", "--at", at])
            show(["funnel", "--log", log, "--at", at])
            show(["notifications", "--log", log, "--at", at])
            show(["verify", "--log", log])
        }
        return failures == 0 ? 0 : 1
    }
}
