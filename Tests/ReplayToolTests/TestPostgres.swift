import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL server for the sync tests: `initdb` + `pg_ctl` on a temporary folder,
/// reachable only through a Unix socket in it (`listen_addresses=''`), trust authentication,
/// started once per test process on first use and stopped (folder removed) when the process
/// exits. Each test makes a database of its own. The server refuses to run as root, so as root
/// it runs as the `postgres` user (`runuser`). Nil where initdb, pg_ctl or psql is missing.
final class TestPostgres: Sendable {
    let folder: String
    let binDir: String

    static let shared: TestPostgres? = start()
    static var available: Bool { shared != nil }

    private init(folder: String, binDir: String) {
        self.folder = folder
        self.binDir = binDir
    }

    /// A libpq connection string for `database`.
    func conninfo(_ database: String) -> String { "host=\(folder) user=postgres dbname=\(database)" }

    /// A new database, empty or a copy of `template` (a connection string this made); returns its connection string.
    func createDatabase(copying template: String? = nil) throws -> String {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let copy = template.map { " TEMPLATE " + Self.name($0) } ?? ""
        let r = psql(conninfo("postgres"), "CREATE DATABASE \(name)\(copy);")
        guard r.status == 0 else { throw FixtureError("CREATE DATABASE failed: \(r.err)") }
        return conninfo(name)
    }

    /// The database a connection string made here names.
    static func name(_ conninfo: String) -> String { String(conninfo.split(separator: "=").last!) }

    /// Waits until no session is connected to the database (a killed sync's psql may still be finishing).
    func waitForNoSessions(_ conninfo: String) throws {
        for _ in 0..<1000 {
            let n = try rows(self.conninfo("postgres"), "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(Self.name(conninfo))';")
            if n == [["0"]] { return }
            usleep(10_000)
        }
        throw FixtureError("sessions still connected to \(Self.name(conninfo)) after 10 s")
    }

    /// Runs SQL through psql (unaligned, tuples only, `|` between fields).
    @discardableResult
    func psql(_ conninfo: String, _ sql: String) -> ToolRun {
        Self.run("/usr/bin/env", ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "--dbname", conninfo], stdin: sql)
    }

    /// Rows of a query, each split at `|`.
    func rows(_ conninfo: String, _ sql: String) throws -> [[String]] {
        let r = psql(conninfo, sql)
        guard r.status == 0 else { throw FixtureError("query failed: \(r.err)\n\(sql)") }
        return r.out.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
    }

    private static func find(_ name: String) -> String? {
        var dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        dirs += ["/usr/local/bin"] + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted().reversed().map { "/usr/lib/postgresql/\($0)/bin" }
        return dirs.first { access($0 + "/" + name, X_OK) == 0 }.map { $0 + "/" + name }
    }

    private static func start() -> TestPostgres? {
        guard let initdb = find("initdb"), let pgctl = find("pg_ctl"), find("psql") != nil else { return nil }
        let binDir = URL(fileURLWithPath: initdb).deletingLastPathComponent().path
        // A short path: a Unix socket's path must fit in 107 bytes.
        var template = Array("/tmp/pgt-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let folder = String(cString: made)
        let asRoot = getuid() == 0
        if asRoot { _ = run("/bin/chown", ["postgres", folder]) }
        // Through posix_spawn and waitpid: the server pg_ctl leaves running inherits descriptors
        // that Foundation's Process watches, and waiting for pg_ctl through it can hang.
        func server(_ program: String, _ args: [String]) -> ToolRun {
            let argv = asRoot ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] + args : [program] + args
            return spawn(argv, output: folder + "/tool.out")
        }
        let data = folder + "/data"
        let i = server(initdb, ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "-N"])
        guard i.status == 0 else { print("TestPostgres: initdb failed: \(i.err)"); return nil }
        let s = server(pgctl, ["-D", data, "-l", folder + "/server.log", "-w", "-o",
                               "-k \(folder) -c listen_addresses='' -c fsync=off -c full_page_writes=off -c max_connections=60", "start"])
        guard s.status == 0 else { print("TestPostgres: pg_ctl start failed: \(s.err)"); return nil }
        let pg = TestPostgres(folder: folder, binDir: binDir)
        // At exit, with system(3): Foundation's Process cannot be waited for while the process exits.
        let stop = (asRoot ? "/usr/sbin/runuser -u postgres -- " : "") + "'\(pgctl)' -D '\(data)' -m immediate -w stop >/dev/null 2>&1; rm -rf '\(folder)'"
        stopCommand = strdup(stop)
        atexit { if let c = TestPostgres.stopCommand { _ = system(c) } }
        return pg
    }

    nonisolated(unsafe) private static var stopCommand: UnsafeMutablePointer<CChar>?

    /// Runs `argv` with stdout and stderr to `output` and waits for it.
    static func spawn(_ argv: [String], output: String) -> ToolRun {
        guard let pid = start(argv, output: output) else { return ToolRun(status: -1, out: "", err: "cannot run \(argv[0])") }
        let status = wait(pid)
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return ToolRun(status: status, out: text, err: text)
    }

    /// Waits for `pid` and returns its exit status, or 128 + the signal that ended it (as a shell says).
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Starts `argv` (stdin /dev/null, stdout and stderr to `output`) and returns its pid, to be waited for with waitpid.
    static func start(_ argv: [String], output: String) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ) == 0 else { return nil }
        return pid
    }

    static func run(_ program: String, _ args: [String], stdin: String? = nil) -> ToolRun {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = args
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input
        do { try p.run() } catch { return ToolRun(status: -1, out: "", err: "\(error)") }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        let errData = ErrCollector()
        let t = Thread { errData.data = err.fileHandleForReading.readDataToEndOfFile() }
        t.start()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        while errData.data == nil { usleep(1000) }
        return ToolRun(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: errData.data!, as: UTF8.self))
    }
}

private final class ErrCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Data?
    var data: Data? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
