import Foundation
import EventStore
import Projections
import SubscriptionDomain
import Platform
import Ingest

/// replay-tool: the command line of the subscription ledger (CONTRACT.md §5).
let commands: [CommandSpec] = [
    LogCommands.importCommand, LogCommands.export, QueryCommands.state, QueryCommands.history,
    QueryCommands.counts, QueryCommands.funnel, QueryCommands.notifications, LogCommands.verify, LogCommands.recover,
    QueryCommands.diff, QueryCommands.revenue, MetricsCommand.spec, UsersCommand.spec, ReportCommand.report, LogCommands.cache, PartitionCommand.command, ServeCommand.spec, SyncCommand.spec, ToolCommands.generate, ToolCommands.demo, ToolCommands.profiles,
    ProofCommands.keygen, ProofCommands.checkpoint, ProofCommands.prove, ProofCommands.checkProof,
]

func toolHelp() -> String {
    var out = """
    replay-tool: the subscription ledger's command line.

    usage: replay-tool COMMAND [options]   (replay-tool COMMAND --help for its options)

    commands:

    """
    let width = commands.map(\.name.count).max() ?? 0
    for c in commands { out += "  " + c.name.padding(width) + "  " + c.summary + "\n" }
    out += "\nreplay-tool --version prints the package version and the log format version.\n"
    out += "\nexit status: 0 ok, 1 the input or the log had something wrong (rejected lines, damage), 2 usage error.\n"
    return out
}

func runTool(_ args: [String]) -> Int32 {
    guard let name = args.first, !["--help", "-h", "help"].contains(name) else {
        if args.count > 1, let c = commands.first(where: { $0.name == args[1] }) { Console.out(ArgumentParser.help(c)) } else { Console.out(toolHelp()) }
        return args.isEmpty ? 2 : 0
    }
    if name == "--version" || name == "version" {
        Console.out(ToolVersion.text)
        return 0
    }
    guard let command = commands.first(where: { $0.name == name }) else {
        Console.err("replay-tool: unknown command '\(OneLine.escaped(name))'\(Suggestion.hint(name, among: commands.map(\.name))) (see replay-tool --help)")
        return 2
    }
    let rest = Array(args.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
        Console.out(ArgumentParser.help(command))
        return 0
    }
    // Messages quote what was typed or read (paths, values): each is printed as one line.
    do {
        try Common.checkFixedClock()
        let parsed = try ArgumentParser.parse(rest, for: command)
        let status = try command.run(parsed)
        try Console.flushOrThrow()
        return status
    } catch let e as ToolError {
        if !e.silent { Console.err("replay-tool \(name): \(OneLine.escaped(e.message))") }
        return e.exitCode
    } catch let e as EventStoreError {
        Console.err("replay-tool \(name): \(OneLine.escaped(e.description))")
        return e.code == .invalidArgument ? 2 : 1
    } catch let e as SystemError {
        Console.err("replay-tool \(name): \(OneLine.escaped(e.description))")
        return 1
    } catch {
        Console.err("replay-tool \(name): \(OneLine.escaped("\(error)"))")
        return 1
    }
}

PlatformProcess.ignoreFileSizeLimitSignal()
PlatformProcess.ignoreBrokenPipeSignal()
var status = runTool(Array(CommandLine.arguments.dropFirst()))
Console.flush()
if let failed = Console.outputFailure, !Console.failureReported {
    // A command that failed to write its output never exits 0, whatever it had decided.
    _ = Console.writeAll(2, Array("replay-tool: \(Console.outputFailureText(failed))\n".utf8))
    if status == 0 { status = 1 }
}
exit(status)
