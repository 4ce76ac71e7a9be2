/// One option a command accepts.
struct OptionSpec: Sendable {
    var name: String
    /// The value's placeholder (`DIR`), or nil for a flag without a value.
    var value: String?
    var help: String
    var repeatable = false
}

/// A command of the tool: its name, help, options and what it does.
struct CommandSpec: Sendable {
    var name: String
    var summary: String
    /// Positional arguments, as shown in usage (`FILE…`), or nil if none are taken.
    var positionals: String?
    var options: [OptionSpec]
    var details: String = ""
    var run: @Sendable (ParsedArguments) throws -> Int32
}

/// Options and positionals after parsing against a command's table.
struct ParsedArguments {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []

    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }
}

/// The small, table-driven parser: `--name value`, `--name=value`, flags, `--` and positionals.
enum ArgumentParser {
    static func parse(_ args: [String], for command: CommandSpec) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("--") || arg == "-" {
                // An empty path would name the current folder's parent or the filesystem's root.
                guard !arg.isEmpty else {
                    throw ToolError.usage("'\(command.name)' takes \(command.positionals ?? "no argument"), not an empty string")
                }
                parsed.positionals.append(arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            guard let spec = command.options.first(where: { $0.name == name }) else {
                let hint = Suggestion.hint(name, among: command.options.map(\.name) + ["--help"])
                throw ToolError.usage("unknown option \(name) for '\(command.name)'\(hint) (see replay-tool \(command.name) --help)")
            }
            if spec.value == nil {
                guard inline == nil else { throw ToolError.usage("option \(name) takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inline { value = inline } else {
                guard i < args.count else { throw ToolError.usage("option \(name) needs a value (\(spec.value!))") }
                value = args[i]
                i += 1
            }
            // `--log ""` would make the log at the filesystem's root; no option means anything empty.
            guard !value.isEmpty else { throw ToolError.usage("option \(name) needs a value (\(spec.value!)), not an empty string") }
            if !spec.repeatable && parsed.values[name] != nil {
                throw ToolError.usage("option \(name) given twice")
            }
            parsed.values[name, default: []].append(value)
        }
        if command.positionals == nil, let extra = parsed.positionals.first {
            throw ToolError.usage("'\(command.name)' takes no argument '\(extra)' (see replay-tool \(command.name) --help)")
        }
        return parsed
    }

    /// `--help` text for one command.
    static func help(_ c: CommandSpec) -> String {
        var out = "usage: replay-tool \(c.name)"
        if !c.options.isEmpty { out += " [options]" }
        if let p = c.positionals { out += " \(p)" }
        out += "\n\n\(c.summary)\n"
        if !c.details.isEmpty { out += "\n\(c.details)\n" }
        if !c.options.isEmpty {
            out += "\noptions:\n"
            let labels = c.options.map { $0.name + ($0.value.map { " " + $0 } ?? "") }
            let width = labels.map(\.count).max() ?? 0
            for (o, label) in zip(c.options, labels) {
                out += "  " + label.padding(width) + "  " + o.help + (o.repeatable ? " (repeatable)" : "") + "\n"
            }
        }
        return out
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
