import AppleChainFixture
import Foundation
import Synchronization
import Testing
import TestKit

/// `serve` through real sockets on 127.0.0.1: every endpoint and error of the contract, what a
/// 200 guarantees (a `kill -9` the next instant loses nothing acknowledged), the seeds' answers,
/// and clients that misbehave.
@Suite struct Serve {
    static let stores = "events/stores/profile.json"

    /// A JSON object as sorted-key text, to compare two decoded objects.
    static func canonical(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    static func lines(_ file: String) throws -> [String] {
        try String(contentsOfFile: Tool.packageRoot + "/" + file, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func everyEndpointAnswersAsTheContractSaysAndAsTheCommandsPrint() throws {
        let served = try ServedLedger(profile: Self.stores)
        let health = try served.request("GET", "/healthz")
        #expect(health.status == 200 && health.json?["position"] as? Int == 0 && health.headers["content-type"] == "application/json")
        // RevenueCat's story, one webhook per event: each answered once durable, a retry as a duplicate.
        var positions: [Int] = []
        var seen: Set<String> = []
        for line in try Self.lines("events/stores/revenuecat-story.jsonl") {
            let r = try served.request("POST", "/billing/webhook", token: ServedLedger.webhookSecret, body: line)
            #expect(r.status == 200, "\(r.body)")
            // The story sends one event twice (a store retry): the second is answered as a duplicate.
            let id = ((Tool.json(line) as? [String: Any])?["event"] as? [String: Any])?["id"] as? String ?? ""
            if let p = r.json?["position"] as? Int {
                #expect(r.json?["duplicate"] as? Bool == seen.contains(id), "\(id): \(r.body)")
                if !seen.contains(id) { positions.append(p) }
            } else {
                #expect(r.json?["skipped"] is String, "\(r.body)")
            }
            seen.insert(id)
        }
        #expect(positions == positions.sorted() && !positions.isEmpty)
        let retry = try served.request("POST", "/billing/webhook", token: ServedLedger.webhookSecret, body: try Self.lines("events/stores/revenuecat-story.jsonl")[1])
        #expect(retry.status == 200 && retry.json?["duplicate"] as? Bool == true && retry.json?["position"] as? Int == positions.first)
        // Canonical events, as JSON Lines: acknowledged as import --follow acknowledges.
        let handz = try Self.lines("events/handz.jsonl").joined(separator: "\n")
        let events = try served.request("POST", "/events", token: ServedLedger.apiKey, body: handz)
        #expect(events.status == 200 && events.json?["appended"] as? Int == 43 && events.json?["duplicates"] as? Int == 1, "\(events.body)")
        // Reads answer what the commands print with --format json.
        let log = served.scratch.log
        for (path, args) in [("/users/dora/state?at=2026-02-06T12:00:00Z", ["state", "--user", "dora", "--at", "2026-02-06T12:00:00Z"]),
                             ("/users/carol/history", ["history", "--user", "carol"]),
                             ("/reports/counts", ["counts"]), ("/reports/revenue?by=month&to=2026-03-01T00:00:00Z", ["revenue", "--by", "month", "--to", "2026-03-01T00:00:00Z"]),
                             ("/reports/funnel?at=2026-02-06T12:00:00Z", ["funnel", "--at", "2026-02-06T12:00:00Z"]),
                             ("/reports/metrics?by=month&by-segment=offer&within=3d&at=2026-03-01T00:00:00Z",
                              ["metrics", "--by", "month", "--by-segment", "offer", "--within", "3d", "--at", "2026-03-01T00:00:00Z"]),
                             ("/reports/revenue?by-segment=product&as-known-at=2026-01-01T00:00:00Z", ["revenue", "--by-segment", "product", "--as-known-at", "2026-01-01T00:00:00Z"])] {
            let served = try served.request("GET", path, token: ServedLedger.apiKey)
            let printed = Tool.run(args + ["--log", log, "--profile", Self.stores, "--format", "json"], now: nil)
            #expect(served.status == 200 && served.body + "\n" == printed.out, "\(path): \(served.body.prefix(200)) vs \(printed.out.prefix(200))")
        }
        let entitlements = try served.request("GET", "/billing/entitlements?user=dora", token: ServedLedger.apiKey)
        #expect(entitlements.status == 200 && entitlements.json?["plan"] is String && entitlements.json?["features"] is [String: Any], "\(entitlements.body)")
        // Errors: credentials, bodies, resources, methods.
        for (method, path, token) in [("POST", "/billing/webhook", nil), ("POST", "/billing/webhook", ServedLedger.apiKey), ("POST", "/events", ServedLedger.webhookSecret),
                                      ("GET", "/billing/entitlements?user=dora", nil), ("GET", "/reports/counts", "wrong"), ("GET", "/users/dora/state", nil)] {
            let r = try served.request(method, path, token: token, body: method == "POST" ? "{}" : nil)
            #expect(r.status == 401 && r.body == #"{"error":"unauthorized"}"#, "\(method) \(path)")
        }
        let bad = try served.request("POST", "/billing/webhook", token: ServedLedger.webhookSecret, body: #"{"event":{"type":"RENEWAL"}}"#)
        #expect(bad.status == 400 && (bad.json?["error"] as? String)?.isEmpty == false)
        let kept = try FileManager.default.contentsOfDirectory(atPath: log + "/rejected").filter { $0.hasSuffix(".jsonl") }
        let keptText = try String(contentsOfFile: log + "/rejected/" + kept[0], encoding: .utf8)
        #expect(kept.count == 1 && keptText.contains(#""type":"RENEWAL""#))
        // A parameter the route does not take (a typo among them) or one given twice: 400 naming it, as the command line refuses it.
        for (path, says) in [("/reports/counts?by-segmnet=product", "unknown parameter 'by-segmnet'"), ("/reports/metrics?limit=5", "unknown parameter 'limit'"),
                             ("/reports/counts?at=2026-01-01T00:00:00Z&at=2026-02-01T00:00:00Z", "parameter 'at' given twice"),
                             ("/users/dora/history?at=2026-01-01T00:00:00Z", "unknown parameter 'at'"), ("/users/dora/state?user=x", "unknown parameter 'user'")] {
            let r = try served.request("GET", path, token: ServedLedger.apiKey)
            #expect(r.status == 400 && (r.json?["error"] as? String)?.contains(says) == true, "\(path): \(r.body)")
        }
        #expect(try served.request("GET", "/nothing/here").status == 404)
        #expect(try served.request("GET", "/users/dora/plans", token: ServedLedger.apiKey).status == 404)
        let wrongMethod = try served.request("GET", "/billing/webhook", token: ServedLedger.webhookSecret)
        #expect(wrongMethod.status == 405 && wrongMethod.headers["allow"] == "POST")
        // Hostile framing: a body announced over 1 MiB, headers over 16 KiB, both lengths at once.
        let huge = try served.raw(Array("POST /events HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(ServedLedger.apiKey)\r\nContent-Length: 2000000\r\n\r\n".utf8))
        #expect(huge.status == 413 && huge.headers["content-type"] == "application/json" && (huge.json?["error"] as? String)?.hasPrefix("413 ") == true, "\(huge.body)")
        let longHeaders = try served.raw(Array(("GET /healthz HTTP/1.1\r\nHost: t\r\nX-Long: " + String(repeating: "a", count: 20_000) + "\r\n\r\n").utf8))
        #expect(longHeaders.status == 431 && (longHeaders.json?["error"] as? String)?.hasPrefix("431 ") == true, "\(longHeaders.body)")
        let both = try served.raw(Array("POST /events HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}".utf8))
        #expect(both.status == 400)
        let nul = try served.raw(Array("GET /healthz\u{0} HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        #expect(nul.status == 400 && nul.headers["content-type"] == "application/json" && (nul.json?["error"] as? String)?.hasPrefix("400 Bad Request") == true, "\(nul.body)")
        // SIGTERM: exit 0; one line per request on stderr, with neither a secret nor a body.
        let (status, stderr) = served.stop()
        #expect(status == 0)
        #expect(!stderr.contains(ServedLedger.webhookSecret) && !stderr.contains(ServedLedger.apiKey) && !stderr.contains("INITIAL_PURCHASE"))
        #expect(stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("{\"method\":") }, "\(stderr.prefix(300))")
        #expect(Tool.run(["verify", "--log", log]).status == 0)
    }

    @Test func everyAcknowledgedWriteSurvivesAKill9TheNextInstantExactlyOnce() throws {
        let served = try ServedLedger(profile: "handz")
        let acknowledged = Mutex<[String]>([])
        let enough = DispatchSemaphore(value: 0)
        let clients = 6, perClient = 40
        let group = DispatchGroup()
        for c in 0..<clients {
            group.enter()
            Thread {
                defer { group.leave() }
                for k in 0..<perClient {
                    let id = "kill-\(c)-\(k)"
                    let line = #"{"id":"\#(id)","type":"account_created","user":"u-\#(c)-\#(k)","time":"2026-01-01T00:00:00Z","data":{},"source":"server"}"#
                    guard let r = try? served.request("POST", "/events", token: ServedLedger.apiKey, body: line), r.status == 200 else { return }
                    let count = acknowledged.withLock { $0.append(id); return $0.count }
                    if count == clients * perClient / 3 { enough.signal() }
                }
            }.start()
        }
        enough.wait()
        kill(served.process.processIdentifier, SIGKILL)
        group.wait()
        served.process.waitUntilExit()
        let log = served.scratch.log
        #expect(Tool.run(["verify", "--log", log]).status == 0)
        let exported = Tool.run(["export", "--log", log]).out.split(separator: "\n").compactMap { line -> String? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
        }
        let acked = acknowledged.withLock { $0 }
        #expect(acked.count >= clients * perClient / 3)
        for id in acked { #expect(exported.filter { $0 == id }.count == 1, "\(id) acknowledged but \(exported.filter { $0 == id }.count) times in the log") }
        #expect(Set(exported).count == exported.count)
    }

    @Test func entitlementsFollowSeed002sShapeForEachHowRUPlanAndEachProfilesTierLimits() throws {
        let served = try ServedLedger(profile: "howru")
        let now = Date().timeIntervalSince1970
        func at(_ days: Double) -> String { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: now + days * 86_400)) }
        let events = [
            #"{"id":"p1","type":"purchase","user":"premium-user","time":"\#(at(-1))","data":{"product":"howru_premium_monthly","transaction":"t1","expires":"\#(at(29))","price":"4.99","currency":"USD"},"source":"store"}"#,
            #"{"id":"f1","type":"purchase","user":"family-user","time":"\#(at(-1))","data":{"product":"howru_family_monthly","transaction":"t2","expires":"\#(at(29))","price":"9.99","currency":"USD"},"source":"store"}"#,
            #"{"id":"a1","type":"account_created","user":"free-user","time":"\#(at(-1))","data":{},"source":"server"}"#,
        ]
        #expect(try served.request("POST", "/events", token: ServedLedger.apiKey, body: events.joined(separator: "\n")).status == 200)
        let profile = try #require(Tool.json(Tool.run(["profiles", "show", "howru"]).out) as? [String: Any])
        let tiers = try #require(profile["tiers"] as? [[String: Any]])
        for (user, plan, status) in [("premium-user", "premium", "active"), ("family-user", "family", "active"), ("free-user", "free", "free")] {
            let r = try served.request("GET", "/billing/entitlements?user=\(user)", token: ServedLedger.apiKey)
            let answer = try #require(r.json, "\(r.body)")
            #expect(Set(answer.keys) == ["plan", "status", "expiresAt", "features"])
            #expect(answer["plan"] as? String == plan && answer["status"] as? String == status, "\(r.body)")
            let limits = try #require(tiers.first { $0["name"] as? String == plan }?["limits"] as? [String: Any])
            let features = try #require(answer["features"] as? [String: Any])
            #expect(try Self.canonical(features) == Self.canonical(limits), "\(plan): \(features) vs \(limits)")
        }
        #expect((try served.request("GET", "/billing/entitlements?user=premium-user", token: ServedLedger.apiKey)).json?["expiresAt"] as? String != nil)
    }

    @Test(.enabled(if: OpenSSLChain.isAvailable, "openssl is missing: the signed-notification endpoint test skips"))
    func appleNotificationsAreTakenOnlyWhenTheirSignatureChainVerifies() throws {
        let chain = try OpenSSLChain.shared.get()
        let scratch = Scratch()
        let root = scratch.path + "/root.pem"
        try chain.pem("root").write(toFile: root, atomically: true, encoding: .utf8)
        let served = try ServedLedger(profile: "handz", extra: ["--apple-root", root])
        let line = try AppStoreSignatureImport.signedLine(chain, uuid: "served-1")
        let ok = try served.request("POST", "/appstore/notifications", body: line)
        #expect(ok.status == 200 && ok.json?["position"] as? Int == 1 && ok.json?["duplicate"] as? Bool == false, "\(ok.body)")
        let again = try served.request("POST", "/appstore/notifications", body: line)
        #expect(again.status == 200 && again.json?["duplicate"] as? Bool == true)
        let rogue = try AppStoreSignatureImport.signedLine(chain, uuid: "served-2", key: "rogue")
        let refused = try served.request("POST", "/appstore/notifications", body: rogue)
        #expect(refused.status == 400 && (refused.json?["error"] as? String)?.hasPrefix("signedPayload: ") == true, "\(refused.body)")
        let decoded = #"{"notificationType":"SUBSCRIBED","notificationUUID":"x","signedDate":1,"data":{}}"#
        #expect(try served.request("POST", "/appstore/notifications", body: decoded).status == 400)
    }

    @Test func idleConnectionsDoNotStarveARequestAndPastTheLimitIsAnswered503() throws {
        let served = try ServedLedger(profile: "handz", extra: ["--max-connections", "40"])
        // 39 clients connect and say nothing; a well-behaved one is still answered.
        let idle = try (0..<39).map { _ in try TestSocket(port: served.port) }
        #expect(try served.request("GET", "/healthz").status == 200)
        // The 41st connection while 40 are open: 503, then closed.
        let fortieth = try TestSocket(port: served.port)
        let over = try served.raw(Array("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        #expect(over.status == 503, "\(over.status)")
        _ = fortieth
        _ = idle
        // A client that trickles a request and stops is answered or closed, never served forever:
        // the server stops cleanly with it still connected.
        let slow = try TestSocket(port: served.port)
        try slow.send(Array("GET /heal".utf8))
        #expect(served.stop().status == 0)
    }
}
