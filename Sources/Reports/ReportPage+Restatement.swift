import Projections
import SubscriptionDomain

extension ReportPage {
    /// The section of `report --compare-known-at`: each headline number as known then and now,
    /// and the late records with what their users changed. The "now" cells carry the page's `data-k`.
    static func restatementSection(_ r: Restatement) -> String {
        let e = HumanFormat.escaped
        func plain(_ v: ReportValue) -> String { "<td class=\"n\">\(e(v.text))</td>" }
        var h = "<p class=\"note\">As known at <time>\(e(r.knownAt.description))</time> (the records the log held then) and now: \(r.lateRecords) late record(s) of \(r.lateUsers) user(s), recorded after it and in effect by the report's instant.</p>\n"
        h += "<table class=\"restatement\"><tr><th>figure</th><th>as known at \(e(r.knownAt.description))</th><th>now</th><th>difference</th></tr>"
        for f in r.figures {
            let changed = f.then.value != f.now.value
            h += "<tr\(changed ? " class=\"changed\"" : "")><td><code>\(e(f.key))</code></td>\(plain(f.then))\(f.now.cell())\(plain(f.difference))</tr>"
        }
        h += "</table>\n"
        guard !r.users.isEmpty else { return h + "<p class=\"empty\">No late record.</p>" }
        h += "<table class=\"late\"><tr><th>user</th><th>late records (type, in effect, recorded)</th><th>what the user's records changed</th></tr>"
        for u in r.users {
            let records = u.records.map { "\(e($0.type)) #\($0.position) at <time>\(e($0.time.description))</time>, recorded <time>\(e($0.recorded.description))</time>" }
            let changes = u.changes.map { "<code>\(e($0.key))</code> \(e($0.difference.text))" }
            h += "<tr><td>\(e(u.user))</td><td>\(records.joined(separator: "<br>"))</td><td>\(changes.isEmpty ? "nothing headline" : changes.joined(separator: "<br>"))</td></tr>"
        }
        h += "</table>\n"
        if r.lateUsers > r.users.count { h += "<p class=\"note\">The first \(r.users.count) of \(r.lateUsers) users are shown (the JSON form, <code>--format json</code>, lists the same).</p>" }
        return h
    }
}
