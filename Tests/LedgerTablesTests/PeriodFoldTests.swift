import Testing
import SubscriptionDomain
@testable import LedgerTables

/// The `subscriptions` table's periods for hand-worked stories, each named after the rule
/// (docs/rules.md) whose effect on the periods it checks: which transaction opens a period, what
/// it books, how it chains, and when the rules end its access.
@Suite struct PeriodFoldStories {
    static let monthly = "handz.pro.monthly"

    static func buy(_ id: String, _ user: String, _ time: String, txn: String, expires: String, trial: Bool = false, extra: String = "") -> String {
        let offer = trial ? #","offer":"free_trial""# : #","price":"9.99","currency":"USD""#
        return ev(id, "purchase", user, time, #"{"product":"\#(monthly)","transaction":"\#(txn)","expires":"\#(expires)"\#(offer)\#(extra)}"#)
    }

    static func renew(_ id: String, _ user: String, _ time: String, txn: String, expires: String, extra: String = "") -> String {
        ev(id, "renewal", user, time, #"{"product":"\#(monthly)","transaction":"\#(txn)","expires":"\#(expires)","price":"9.99","currency":"USD"\#(extra)}"#)
    }

    @Test("CH25 L589 then CH08 L324: a trial period books nothing and ends at the paid renewal, which chains as number 2")
    func trialThenPaid() throws {
        let story = [Self.buy("1", "a", "2026-01-01T10:00:00Z", txn: "a1", expires: "2026-01-08T10:00:00Z", trial: true),
                     Self.renew("2", "a", "2026-01-08T10:00:00Z", txn: "a2", expires: "2026-02-08T10:00:00Z")]
        let p = try periods(story, at: "2026-01-20T00:00:00Z")
        try #require(p.count == 2)
        #expect(p[0].transaction == "a1" && p[0].originalTransaction == "a1")
        #expect(p[0].isTrial && p[0].offer == .freeTrial && p[0].price == nil && p[0].currency == nil)
        #expect(p[0].renewalNumber == 1 && p[0].effectiveEnd == t("2026-01-08T10:00:00Z"))
        #expect(p[1].transaction == "a2" && p[1].originalTransaction == "a1" && !p[1].isTrial)
        #expect(p[1].price == usd(9_990_000) && p[1].currency == "USD" && p[1].renewalNumber == 2)
        #expect(p[1].start == t("2026-01-08T10:00:00Z") && p[1].expires == t("2026-02-08T10:00:00Z"))
        #expect(p[1].effectiveEnd == nil, "still running on 2026-01-20")
        // Past the expiry with no renewal heard of: access runs on through the 24 h unverified grace (SK-D04).
        let later = try periods(story, at: "2026-03-01T00:00:00Z")
        #expect(later[1].effectiveEnd == t("2026-02-09T10:00:00Z"))
        // Still within that grace: running.
        #expect(try periods(story, at: "2026-02-08T20:00:00Z")[1].effectiveEnd == nil)
    }

    @Test("CH25 L590: a trial cancelled ends at its expiry, with no unverified grace")
    func trialCancelled() throws {
        let story = [Self.buy("1", "a", "2026-01-01T10:00:00Z", txn: "a1", expires: "2026-01-08T10:00:00Z", trial: true),
                     ev("2", "cancellation", "a", "2026-01-03T00:00:00Z")]
        #expect(try periods(story, at: "2026-01-07T00:00:00Z")[0].effectiveEnd == nil)
        #expect(try periods(story, at: "2026-01-20T00:00:00Z")[0].effectiveEnd == t("2026-01-08T10:00:00Z"))
    }

    @Test("SK-D01 then SK-D01 recovered: billing grace keeps the period running; a renewal in it closes it at the renewal")
    func billingGraceThenRecovery() throws {
        let paid = [Self.buy("1", "b", "2026-01-02T09:00:00Z", txn: "b1", expires: "2026-02-02T09:00:00Z"),
                    ev("2", "billing_issue", "b", "2026-02-02T09:00:00Z")]
        // Within the 3 days of billing grace: still running.
        #expect(try periods(paid, at: "2026-02-04T00:00:00Z")[0].effectiveEnd == nil)
        // Grace run out without a renewal (SK-D01 ended): access ended when the grace did.
        #expect(try periods(paid, at: "2026-02-10T00:00:00Z")[0].effectiveEnd == t("2026-02-05T09:00:00Z"))
        let recovered = paid + [Self.renew("3", "b", "2026-02-04T00:00:00Z", txn: "b2", expires: "2026-03-04T00:00:00Z")]
        let p = try periods(recovered, at: "2026-02-10T00:00:00Z")
        try #require(p.count == 2)
        #expect(p[0].effectiveEnd == t("2026-02-04T00:00:00Z"), "superseded at the recovering renewal, not at the grace's end")
        #expect(p[1].transaction == "b2" && p[1].renewalNumber == 2 && p[1].effectiveEnd == nil)
    }

    @Test("LATE-RENEWAL: a renewal after the grace ran out closes the old period when its access ended, not at the renewal")
    func lateRenewal() throws {
        let story = [Self.buy("1", "b", "2026-01-02T09:00:00Z", txn: "b1", expires: "2026-02-02T09:00:00Z"),
                     ev("2", "billing_issue", "b", "2026-02-02T09:00:00Z"),
                     Self.renew("3", "b", "2026-02-20T00:00:00Z", txn: "b2", expires: "2026-03-20T00:00:00Z")]
        let p = try periods(story, at: "2026-02-25T00:00:00Z")
        try #require(p.count == 2)
        #expect(p[0].effectiveEnd == t("2026-02-05T09:00:00Z"))
        #expect(p[1].start == t("2026-02-20T00:00:00Z") && p[1].renewalNumber == 2)
    }

    @Test("SK-D08 and REFUND-REVERSED: a refund marks its period and ends access at once; a reversal clears the mark")
    func refund() throws {
        let bought = [Self.buy("1", "c", "2026-01-03T12:00:00Z", txn: "c1", expires: "2026-02-03T12:00:00Z"),
                      ev("2", "refund", "c", "2026-01-04T12:00:00Z", #"{"transaction":"c1"}"#)]
        let p = try periods(bought, at: "2026-01-10T00:00:00Z")
        #expect(p[0].refundedAt == t("2026-01-04T12:00:00Z") && p[0].effectiveEnd == t("2026-01-04T12:00:00Z"))
        #expect(p[0].price == usd(9_990_000), "the period still shows what was booked; the refund is its own column")
        let reversed = bought + [ev("3", "refund_reversed", "c", "2026-01-05T12:00:00Z", #"{"transaction":"c1"}"#)]
        let r = try periods(reversed, at: "2026-01-10T00:00:00Z")
        #expect(r.count == 1 && r[0].refundedAt == nil && r[0].effectiveEnd == nil)
    }

    @Test("SK-D08 books: a refund of an older transaction marks that period only; the running one keeps access")
    func refundOfAnOlderTransaction() throws {
        let story = [Self.buy("1", "c", "2026-01-01T00:00:00Z", txn: "c1", expires: "2026-02-01T00:00:00Z"),
                     Self.renew("2", "c", "2026-02-01T00:00:00Z", txn: "c2", expires: "2026-03-01T00:00:00Z"),
                     ev("3", "refund", "c", "2026-02-10T00:00:00Z", #"{"transaction":"c1"}"#)]
        let p = try periods(story, at: "2026-02-15T00:00:00Z")
        try #require(p.count == 2)
        #expect(p[0].refundedAt == t("2026-02-10T00:00:00Z") && p[0].effectiveEnd == t("2026-02-01T00:00:00Z"))
        #expect(p[1].refundedAt == nil && p[1].effectiveEnd == nil)
    }

    @Test("SK-D07: an upgrade charged at once opens a period of the new product; one at the next renewal opens none")
    func productChange() throws {
        let monthly = ev("1", "purchase", "t", "2026-01-01T00:00:00Z",
                         #"{"product":"tomo.pro.monthly","transaction":"m1","expires":"2026-02-01T00:00:00Z","price":"9.99","currency":"USD"}"#)
        let now = ev("2", "product_change", "t", "2026-01-15T00:00:00Z",
                     #"{"product":"tomo.pro.yearly","effective":"immediate","transaction":"y2","price":"79.99","currency":"USD","expires":"2027-01-15T00:00:00Z"}"#)
        let p = try periods([monthly, now], at: "2026-01-20T00:00:00Z", profile: .tomo)
        try #require(p.count == 2)
        #expect(p[0].product == "tomo.pro.monthly" && p[0].effectiveEnd == t("2026-01-15T00:00:00Z"))
        #expect(p[1].product == "tomo.pro.yearly" && p[1].transaction == "y2" && p[1].originalTransaction == "m1")
        #expect(p[1].price == usd(79_990_000) && p[1].currency == "USD" && p[1].renewalNumber == 2 && p[1].effectiveEnd == nil)
        let atRenewal = ev("2", "product_change", "t", "2026-01-15T00:00:00Z", #"{"product":"tomo.pro.yearly","effective":"next_renewal"}"#)
        let q = try periods([monthly, atRenewal], at: "2026-01-20T00:00:00Z", profile: .tomo)
        #expect(q.count == 1 && q[0].product == "tomo.pro.monthly" && q[0].effectiveEnd == nil)
    }

    @Test("PAUSE ended: a paused period ends at its expiry with no unverified grace; a renewal resumes it as the next period")
    func pause() throws {
        let paused = [Self.buy("1", "p", "2026-01-01T00:00:00Z", txn: "p1", expires: "2026-02-01T00:00:00Z"),
                      ev("2", "pause", "p", "2026-01-20T00:00:00Z", #"{"resumesAt":"2026-03-01T00:00:00Z"}"#)]
        #expect(try periods(paused, at: "2026-01-25T00:00:00Z")[0].effectiveEnd == nil)
        #expect(try periods(paused, at: "2026-02-01T12:00:00Z")[0].effectiveEnd == t("2026-02-01T00:00:00Z"))
        let resumed = paused + [Self.renew("3", "p", "2026-03-01T00:00:00Z", txn: "p2", expires: "2026-04-01T00:00:00Z")]
        let p = try periods(resumed, at: "2026-03-05T00:00:00Z")
        try #require(p.count == 2)
        #expect(p[0].effectiveEnd == t("2026-02-01T00:00:00Z") && p[1].effectiveEnd == nil && p[1].renewalNumber == 2)
    }

    @Test("TRANSFER-OUT and TRANSFER-IN: the sender's period ends at the transfer; the recipient's starts there, booking nothing")
    func transfer() throws {
        let decider = PlanDecider(profile: .handz)
        let sender = try fold([Self.buy("1", "old", "2026-01-01T00:00:00Z", txn: "o1", expires: "2026-02-01T00:00:00Z"),
                               ev("2", "transfer", "old", "2026-01-10T00:00:00Z", #"{"to":"new"}"#)])
        let given = try #require(sender.transferOut)
        #expect(given.to == "new" && given.time == t("2026-01-10T00:00:00Z"))
        #expect(sender.finishedPeriods(at: t("2026-01-20T00:00:00Z"), decider)[0].effectiveEnd == t("2026-01-10T00:00:00Z"))
        var recipient = try fold([ev("3", "account_created", "new", "2026-01-09T00:00:00Z")])
        let received = recipient.receive(given, decider)
        #expect(received)
        let p = recipient.finishedPeriods(at: t("2026-01-20T00:00:00Z"), decider)
        try #require(p.count == 1)
        #expect(p[0].user == "new" && p[0].transaction == "o1" && p[0].originalTransaction == "o1")
        #expect(p[0].start == t("2026-01-10T00:00:00Z") && p[0].expires == t("2026-02-01T00:00:00Z"))
        #expect(p[0].price == nil && p[0].currency == nil && p[0].renewalNumber == nil && p[0].effectiveEnd == nil)
        // A recipient whose own subscription runs receives nothing.
        var busy = try fold([Self.buy("4", "new", "2026-01-05T00:00:00Z", txn: "n1", expires: "2026-02-05T00:00:00Z")])
        let refused = !busy.receive(given, decider)
        #expect(refused)
        #expect(busy.periods.count == 1 && busy.periods[0].transaction == "n1")
    }

    @Test("SANDBOX: a sandbox purchase opens its own period, marked, and leaves the production one running")
    func sandboxApart() throws {
        let story = [Self.buy("1", "s", "2026-01-01T00:00:00Z", txn: "s1", expires: "2026-02-01T00:00:00Z"),
                     Self.buy("2", "s", "2026-01-05T00:00:00Z", txn: "x1", expires: "2026-01-05T00:05:00Z", extra: #","environment":"sandbox""#),
                     Self.renew("3", "s", "2026-01-05T00:05:00Z", txn: "x2", expires: "2026-01-05T00:10:00Z", extra: #","environment":"sandbox""#)]
        let p = try periods(story, at: "2026-01-10T00:00:00Z")
        try #require(p.count == 3)
        #expect(!p[0].sandbox && p[0].effectiveEnd == nil, "production untouched by the sandbox")
        #expect(p[1].sandbox && p[1].transaction == "x1" && p[1].effectiveEnd == t("2026-01-05T00:05:00Z"))
        #expect(p[2].sandbox && p[2].originalTransaction == "x1" && p[2].renewalNumber == 2)
        #expect(p[2].effectiveEnd == t("2026-01-06T00:10:00Z"), "the sandbox chain runs out after its own unverified grace")
    }

    @Test("SAME-TRANSACTION and RENEWAL-ADOPTED: a repeated report opens no period; a renewal of an unknown purchase has no chain number")
    func duplicatesAndAdoptedRenewals() throws {
        let buy = Self.buy("1", "d", "2026-01-01T00:00:00Z", txn: "d1", expires: "2026-02-01T00:00:00Z")
        #expect(try periods([buy, buy.replacingOccurrences(of: #""id":"1""#, with: #""id":"2""#)], at: "2026-01-10T00:00:00Z").count == 1)
        let adopted = try periods([Self.renew("1", "r", "2026-01-01T00:00:00Z", txn: "r5", expires: "2026-02-01T00:00:00Z")],
                                  at: "2026-01-10T00:00:00Z")
        #expect(adopted.count == 1 && adopted[0].renewalNumber == nil && adopted[0].price == usd(9_990_000))
    }

    @Test("a purchase without a price books the catalog's; a family member's access books nothing")
    func bookedPrices() throws {
        let unpriced = ev("1", "purchase", "u", "2026-01-01T00:00:00Z",
                          #"{"product":"handz.pro.monthly","transaction":"u1","expires":"2026-02-01T00:00:00Z"}"#)
        let p = try periods([unpriced], at: "2026-01-10T00:00:00Z")
        #expect(p[0].price == usd(9_990_000) && p[0].currency == "USD")
        let family = ev("1", "purchase", "f", "2026-01-01T00:00:00Z",
                        #"{"product":"com.sportstime.pro.monthly","transaction":"f1","expires":"2026-02-01T00:00:00Z","price":"4.99","currency":"USD","familyShared":true}"#)
        let q = try periods([family], at: "2026-01-10T00:00:00Z", profile: .sportstime)
        #expect(q[0].familyShared && q[0].price == nil)
    }
}
