import Testing
import SubscriptionDomain
@testable import PostgresSink

/// What one ledger user becomes in each seed's table (docs/postgres.md's mapping), from plan
/// states folded by the ledger's own decider: the key, each column's text, no row, or a skip and why.
@Suite struct SyncRowMapping {
    static let mm = "com.mirrormate.premium.monthly"

    static func row(_ target: SyncTarget, _ lines: [String], at: String) throws -> SyncRow {
        let profile = Profile.named(target.rawValue)!
        let row = target.row(try state(lines, profile: profile), decider: PlanDecider(profile: profile), asOf: t(at))
        if case .row(let key, let fields) = row {
            #expect(fields.count == target.stagedColumns.count && fields[0] == key, "\(target): \(fields)")
        }
        return row
    }

    static func fields(_ row: SyncRow) -> [String: String?] {
        guard case .row(_, let fields) = row else { return [:] }
        return Dictionary(uniqueKeysWithValues: zip(SyncTarget.mirrormate.stagedColumns.map(\.0), fields))
    }

    @Test("MirrorMate: a trial is active with trial_ends_at its expiry; cancelled, cancelled_at is when auto-renew went off")
    func mirrormateTrialAndCancel() throws {
        let u = uuid(1)
        let trial = [buy(u, Self.mm, txn: "m1", at: "2026-01-01T00:00:00Z", expires: "2026-01-08T00:00:00Z", trial: true)]
        let r = Self.fields(try Self.row(.mirrormate, trial, at: "2026-01-02T00:00:00Z"))
        #expect(r["user_id"] == u && r["transaction_id"] == "m1" && r["product_id"] == Self.mm && r["status"] == "active")
        #expect(r["expires_at"] == "2026-01-08T00:00:00Z" && r["auto_renew_enabled"] == "t" && r["is_trial"] == "t")
        #expect(r["trial_ends_at"] == "2026-01-08T00:00:00Z" && r["purchased_at"] == "2026-01-01T00:00:00Z" && r["cancelled_at"] == .some(nil))
        let cancelled = trial + [ev("c", "cancellation", u, "2026-01-03T00:00:00Z")]
        let c = Self.fields(try Self.row(.mirrormate, cancelled, at: "2026-01-04T00:00:00Z"))
        #expect(c["status"] == "active" && c["auto_renew_enabled"] == "f" && c["cancelled_at"] == "2026-01-03T00:00:00Z")
        #expect(Self.fields(try Self.row(.mirrormate, cancelled, at: "2026-01-09T00:00:00Z"))["status"] == "expired")
    }

    @Test("MirrorMate: billing grace is grace_period; a refund is cancelled at the refund, and a renewal keeps the original transaction")
    func mirrormateGraceRefundRenewal() throws {
        let u = uuid(2)
        let paid = [buy(u, Self.mm, txn: "p1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")]
        let grace = paid + [ev("b", "billing_issue", u, "2026-02-01T00:00:00Z")]
        #expect(Self.fields(try Self.row(.mirrormate, grace, at: "2026-02-02T00:00:00Z"))["status"] == "grace_period")
        let refunded = paid + [ev("r", "refund", u, "2026-01-05T00:00:00Z", #"{"transaction":"p1"}"#)]
        let r = Self.fields(try Self.row(.mirrormate, refunded, at: "2026-01-06T00:00:00Z"))
        #expect(r["status"] == "cancelled" && r["cancelled_at"] == "2026-01-05T00:00:00Z" && r["is_trial"] == "f" && r["trial_ends_at"] == .some(nil))
        let renewed = paid + [ev("n", "renewal", u, "2026-02-01T00:00:00Z",
                                 #"{"product":"\#(Self.mm)","transaction":"p2","expires":"2026-03-01T00:00:00Z","price":"9.99","currency":"USD"}"#)]
        let n = Self.fields(try Self.row(.mirrormate, renewed, at: "2026-02-10T00:00:00Z"))
        #expect(n["transaction_id"] == "p1" && n["expires_at"] == "2026-03-01T00:00:00Z" && n["status"] == "active")
    }

    @Test("MirrorMate: no subscription is no row (found by its UUID key); a non-UUID user with one is skipped, without one is nothing")
    func mirrormateKeys() throws {
        let u = uuid(3)
        #expect(try Self.row(.mirrormate, [ev("a", "account_created", u, "2026-01-01T00:00:00Z")], at: "2026-01-02T00:00:00Z") == .none(key: u))
        #expect(try Self.row(.mirrormate, [ev("a", "account_created", "tom", "2026-01-01T00:00:00Z")], at: "2026-01-02T00:00:00Z") == .none(key: nil))
        let bought = [buy("tom", Self.mm, txn: "t1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")]
        #expect(try Self.row(.mirrormate, bought, at: "2026-01-02T00:00:00Z") == .skipped(reason: "user id is not a UUID (subscriptions.user_id is uuid)"))
        // A subscription transferred away is no row of the sender's.
        let moved = [buy(u, Self.mm, txn: "x1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z"),
                     ev("t", "transfer", u, "2026-01-05T00:00:00Z", #"{"to":"\#(uuid(4))"}"#)]
        #expect(try Self.row(.mirrormate, moved, at: "2026-01-06T00:00:00Z") == .none(key: u))
    }

    @Test("TOMO: every UUID user has a profile row, free with no expiry until a subscription; a non-UUID user is skipped")
    func tomoRows() throws {
        let u = uuid(5)
        #expect(try Self.row(.tomo, [ev("a", "account_created", u, "2026-01-01T00:00:00Z")], at: "2026-01-02T00:00:00Z")
                == .row(key: u, fields: [u, "free", nil, u]))
        let pro = [buy(u, "tomo.pro.yearly", txn: "y1", at: "2026-01-01T00:00:00Z", expires: "2027-01-01T00:00:00Z")]
        #expect(try Self.row(.tomo, pro, at: "2026-01-02T00:00:00Z") == .row(key: u, fields: [u, "pro", "2027-01-01T00:00:00Z", u]))
        #expect(try Self.row(.tomo, pro, at: "2027-02-01T00:00:00Z") == .row(key: u, fields: [u, "free", "2027-01-01T00:00:00Z", u]))
        #expect(try Self.row(.tomo, [ev("a", "account_created", "tomo-user", "2026-01-01T00:00:00Z")], at: "2026-01-02T00:00:00Z")
                == .skipped(reason: "user id is not a UUID (profiles.id is uuid)"))
    }

    @Test("HowRU: status per plan (trial, active, cancelled, billing_issue, refunded), the plan's tier, and a sandbox-only row marked")
    func howruRows() throws {
        func status(_ lines: [String], at: String) throws -> [String?] {
            guard case .row(_, let f) = try Self.row(.howru, lines, at: at) else { Issue.record("no row"); return [] }
            return [f[2], f[3], f[8]]
        }
        let p = "howru_premium_monthly"
        let trial = [buy("h", p, txn: "h1", at: "2026-01-01T00:00:00Z", expires: "2026-01-08T00:00:00Z", trial: true)]
        #expect(try status(trial, at: "2026-01-02T00:00:00Z") == ["premium", "trial", "f"])
        let paid = [buy("h", p, txn: "h1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")]
        #expect(try status(paid, at: "2026-01-02T00:00:00Z") == ["premium", "active", "f"])
        #expect(try status(paid + [ev("c", "cancellation", "h", "2026-01-03T00:00:00Z")], at: "2026-01-04T00:00:00Z") == ["premium", "cancelled", "f"])
        #expect(try status(paid + [ev("b", "billing_issue", "h", "2026-02-01T00:00:00Z")], at: "2026-02-02T00:00:00Z") == ["premium", "billing_issue", "f"])
        #expect(try status(paid + [ev("r", "refund", "h", "2026-01-05T00:00:00Z", #"{"transaction":"h1"}"#)], at: "2026-01-06T00:00:00Z") == ["free", "refunded", "f"])
        let sandbox = [buy("h", p, txn: "s1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z", extra: #","environment":"sandbox""#)]
        #expect(try status(sandbox, at: "2026-01-02T00:00:00Z") == ["premium", "active", "t"])
        guard case .row(let key, let f) = try Self.row(.howru, paid, at: "2026-01-02T00:00:00Z") else { Issue.record("no row"); return }
        #expect(key == "h" && f[1] == nil, "user_id is NULL for a non-UUID user")
        #expect(f[4] == p && f[5] == "app_store" && f[6] == "2026-01-01T00:00:00Z" && f[7] == "2026-02-01T00:00:00Z")
        let long = String(repeating: "x", count: 256)
        #expect(try Self.row(.howru, [buy(long, p, txn: "l1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")], at: "2026-01-02T00:00:00Z")
                == .skipped(reason: "user id longer than 255 characters or holding NUL (subscriptions.revenue_cat_id is varchar(255))"))
    }

    @Test("a profile without tables is a usage error naming the targets; each target names its table and seed migrations")
    func targets() throws {
        #expect(throws: SyncError.self) { try SyncTarget(profile: .handz) }
        do { _ = try SyncTarget(profile: .handz) } catch let e as SyncError {
            #expect(e.isUsage && e.message.contains("mirrormate, tomo, howru"))
        }
        #expect(try SyncTarget(profile: .tomo) == .tomo)
        #expect(SyncTarget.allCases.map(\.table) == ["subscriptions", "profiles", "subscriptions"])
    }
}
