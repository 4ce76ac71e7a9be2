// serve-bench: `replay-tool serve` under load on loopback, beside a simple peer measured in the
// same run: Python's http.server writing each webhook to SQLite with synchronous=FULL (a commit
// per request) and reading entitlements from it.
//   swift build -c release --product replay-tool --product serve-bench
//   .build/release/serve-bench --log /tmp/bench10m [--profile handz] [--users 1000000] [--hot 10000] [--seconds 10] [--connections 32]
// Entitlements are measured twice: spread over all --users (nearly every request a user not asked
// before: the read through the indexes), then over a working set of --hot users, each asked once
// first (warm-up, not measured), then again and again (kept answers).
// Webhooks append to the log (new ids, new users w_*): run it on a copy to keep the log as it was.
import Foundation
import HTTPServer
import LoadGenerator
import Platform

var log = "", profile = "handz", users = 1_000_000, hot = 10_000, seconds = 10.0, connections = 32, python = true
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let a = arguments.next() {
    switch a {
    case "--log": log = arguments.next() ?? log
    case "--profile": profile = arguments.next() ?? profile
    case "--users": users = arguments.next().flatMap(Int.init) ?? users
    case "--hot": hot = max(1, arguments.next().flatMap(Int.init) ?? hot)
    case "--seconds": seconds = arguments.next().flatMap(Double.init) ?? seconds
    case "--connections": connections = arguments.next().flatMap(Int.init) ?? connections
    case "--no-python": python = false
    default: print("unknown argument \(a)"); exit(2)
    }
}
guard !log.isEmpty else { print("usage: serve-bench --log DIR [--profile P] [--users N] [--hot N] [--seconds S] [--connections C] [--no-python]"); exit(2) }

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-bench-\(getpid())").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }
try "bench-secret\n".write(toFile: folder + "/webhook", atomically: true, encoding: .utf8)
try "bench-key\n".write(toFile: folder + "/key", atomically: true, encoding: .utf8)
let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("replay-tool").path

/// A RevenueCat INITIAL_PURCHASE for a new user, unique per (connection, sequence).
@Sendable func webhook(_ c: Int, _ s: Int) -> [UInt8] {
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let body = #"{"api_version":"1.0","event":{"id":"bench-\#(getpid())-\#(c)-\#(s)","type":"INITIAL_PURCHASE","app_user_id":"w_\#(c)_\#(s)","product_id":"handz.pro.monthly","transaction_id":"t-\#(getpid())-\#(c)-\#(s)","original_transaction_id":"t-\#(getpid())-\#(c)-\#(s)","event_timestamp_ms":\#(now),"purchased_at_ms":\#(now),"expiration_at_ms":\#(now + 2_592_000_000),"store":"APP_STORE","environment":"PRODUCTION","price":9.99,"currency":"USD","period_type":"NORMAL"}}"#
    return Array("POST /billing/webhook HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer bench-secret\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
}
let userCount = users, hotCount = min(hot, users)
@Sendable func entitlements(_ c: Int, _ s: Int) -> [UInt8] {
    let user = (c &* 7919 &+ s &* 104_729) % userCount
    return Array("GET /billing/entitlements?user=u_\(user) HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer bench-key\r\n\r\n".utf8)
}
@Sendable func hotEntitlements(_ c: Int, _ s: Int) -> [UInt8] {
    let user = (c &* 7919 &+ s &* 104_729) % hotCount
    return Array("GET /billing/entitlements?user=u_\(user) HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer bench-key\r\n\r\n".utf8)
}

func residentMiB(_ pid: Int32) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}

/// Starts a process, reads its first stdout line.
func start(_ executable: String, _ args: [String]) throws -> (Process, String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = args
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    try p.run()
    var line: [UInt8] = []
    while let byte = try out.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 { line.append(byte) }
    return (p, String(decoding: line, as: UTF8.self))
}

// The ledger.
let (server, listening) = try start(tool, ["serve", "--log", log, "--profile", profile, "--listen", "127.0.0.1:0",
                                           "--webhook-secret-file", folder + "/webhook", "--api-key-file", folder + "/key", "--scrub-every", "0"])
guard let colon = listening.lastIndex(of: "\""), let portText = listening.split(separator: ":").last?.prefix(while: { $0.isNumber }), let port = UInt16(portText) else {
    print("serve did not start: \(listening)"); exit(1)
}
_ = colon
let address = SocketAddress(host: "127.0.0.1", port: port)
print("log \(log), profile \(profile), \(connections) keep-alive connections, \(seconds) s each, load generator in this process")
print(String(format: "replay-tool serve resident memory at start: %.0f MiB", residentMiB(server.processIdentifier)))
try measure("replay-tool serve  POST /billing/webhook (acknowledged once durable)", address, connections: connections, seconds: seconds, request: webhook)
try measure("replay-tool serve  GET /billing/entitlements, \(userCount) users", address, connections: connections, seconds: seconds, request: entitlements)
// The working set asked once each (the answers built and kept), then measured.
let warming = try LoadConnection(address)
let warmStart = nanoseconds()
for user in 0..<hotCount {
    let status = try warming.ask(Array("GET /billing/entitlements?user=u_\(user) HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer bench-key\r\n\r\n".utf8))
    if status != 200 { print("warm-up: u_\(user) answered \(status)"); exit(1) }
}
print(String(format: "replay-tool serve  warm-up: %d users asked once each, one connection, in %.1f s", hotCount, Double(nanoseconds() - warmStart) / 1e9))
try measure("replay-tool serve  GET /billing/entitlements, \(hotCount) users asked again and again", address, connections: connections, seconds: seconds, request: hotEntitlements)
print(String(format: "replay-tool serve resident memory after: %.0f MiB", residentMiB(server.processIdentifier)))
server.terminate()
server.waitUntilExit()

// The peer: http.server + SQLite, synchronous=FULL, one commit per webhook.
let peer = """
import http.server, json, sqlite3, sys, threading, urllib.parse
db = sqlite3.connect(sys.argv[1], check_same_thread=False, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=FULL")
db.execute("CREATE TABLE IF NOT EXISTS subs (id TEXT PRIMARY KEY, user TEXT, product TEXT, expires INTEGER)")
db.execute("CREATE INDEX IF NOT EXISTS subs_user ON subs(user)")
lock = threading.Lock()
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    def answer(self, body):
        b = json.dumps(body).encode()
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(b))); self.end_headers(); self.wfile.write(b)
    def do_POST(self):
        e = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["event"]
        with lock:
            db.execute("BEGIN"); db.execute("INSERT OR IGNORE INTO subs VALUES (?,?,?,?)", (e["id"], e["app_user_id"], e["product_id"], e["expiration_at_ms"])); db.execute("COMMIT")
        self.answer({"ok": True})
    def do_GET(self):
        user = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)["user"][0]
        with lock:
            row = db.execute("SELECT product, expires FROM subs WHERE user=? ORDER BY expires DESC LIMIT 1", (user,)).fetchone()
        self.answer({"plan": "pro" if row else "free", "expiresAt": row[1] if row else None})
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer.request_queue_size = 128
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(s.server_address[1], flush=True)
s.serve_forever()
"""
if python {
    do {
        let (p, portLine) = try start("/usr/bin/env", ["python3", "-c", peer, folder + "/peer.sqlite"])
        if let peerPort = UInt16(portLine) {
            let peerAddress = SocketAddress(host: "127.0.0.1", port: peerPort)
            try measure("python http.server + SQLite FULL  POST webhook (a commit each)", peerAddress, connections: connections, seconds: seconds, request: webhook)
            try measure("python http.server + SQLite FULL  GET entitlements", peerAddress, connections: connections, seconds: seconds) { c, s in
                Array("GET /billing/entitlements?user=w_\(c)_\(s % 50) HTTP/1.1\r\nHost: bench\r\n\r\n".utf8)
            }
        } else {
            print("python peer did not start: \(portLine)")
        }
        p.terminate()
        p.waitUntilExit()
    } catch {
        print("python peer skipped: \(error)")
    }
}
