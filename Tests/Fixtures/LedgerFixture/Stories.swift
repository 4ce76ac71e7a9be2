import Foundation
import SubscriptionDomain

/// The repository's root folder (for the sample stories under events/).
public let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.path
}()

extension Profile {
    /// The profile with the import door's profile checks open (for stories that mix apps' products
    /// and features in one log): products its catalog does not list give the entitlement of its
    /// first product, and family-shared events are accepted.
    public var lenientDoor: Profile {
        var p = self
        p.unknownProductEntitlement = products.lazy.compactMap(\.entitlement).first
        p.familySharing = true
        return p
    }
}

/// An event line from its parts (data as JSON text).
public func line(_ id: String, _ type: String, _ user: String, _ time: String, _ data: String = "{}") -> String {
    #"{"id":"\#(id)","type":"\#(type)","user":"\#(user)","time":"\#(time)","data":\#(data)}"#
}

/// A small story of one app: a paywall, a trial, renewals, a cancellation, another user's refund.
public let story: [String] = [
    line("1", "paywall_viewed", "a", "2026-01-01T10:00:00Z", #"{"context":"onboarding"}"#),
    line("2", "paywall_cta_tapped", "a", "2026-01-01T10:01:00Z", #"{"context":"onboarding"}"#),
    line("3", "purchase_started", "a", "2026-01-01T10:02:00Z"),
    line("4", "purchase", "a", "2026-01-01T10:03:00Z", #"{"product":"handz.pro.monthly","transaction":"a1","expires":"2026-01-08T10:03:00Z","offer":"free_trial"}"#),
    line("5", "purchase_success", "a", "2026-01-01T10:03:01Z"),
    line("6", "renewal", "a", "2026-01-08T10:03:00Z", #"{"product":"handz.pro.monthly","transaction":"a2","expires":"2026-02-08T10:03:00Z","price":"9.99","currency":"USD"}"#),
    line("7", "paywall_viewed", "b", "2026-01-02T09:00:00Z", #"{"context":"settings"}"#),
    line("8", "purchase_started", "b", "2026-01-02T09:01:00Z"),
    line("9", "purchase", "b", "2026-01-02T09:02:00Z", #"{"product":"handz.pro.monthly","transaction":"b1","expires":"2026-02-02T09:02:00Z","price":"9.99","currency":"USD"}"#),
    line("10", "billing_issue", "b", "2026-02-02T09:02:00Z"),
    line("11", "purchase", "b", "2026-01-02T09:02:05Z", #"{"product":"handz.pro.monthly","transaction":"b1","expires":"2026-02-02T09:02:00Z","price":"9.99","currency":"USD"}"#),
    line("12", "purchase", "c", "2026-01-03T12:00:00Z", #"{"product":"handz.pro.monthly","transaction":"c1","expires":"2026-01-10T12:00:00Z","offer":"free_trial"}"#),
    line("13", "refund", "c", "2026-01-04T12:00:00Z", #"{"transaction":"c1"}"#),
    line("14", "notifications_disabled", "d", "2026-01-01T00:00:00Z", #"{"category":"billing"}"#),
    line("15", "purchase", "d", "2026-01-05T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"d1","expires":"2026-01-12T00:00:00Z","offer":"free_trial"}"#),
    line("16", "purchase", "e", "2026-01-06T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"e1","expires":"2026-02-06T00:00:00Z","price":"9.99","currency":"USD","environment":"sandbox"}"#),
]
