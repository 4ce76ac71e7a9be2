import Foundation
import SubscriptionDomain
import StoreAdapters

/// Fixtures written from Apple's and RevenueCat's public field lists, one per payload type.
public enum StoreFixtures {
    public static let user = "6f1c2d3e-5a4b-4c3d-9e2f-0000000000aa"
    public static let t0: Int64 = 1_775_000_000_000   // 2026-03-31T23:33:20Z

    public static func json(_ o: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]), as: UTF8.self)
    }

    public static func transaction(_ extra: [String: Any] = [:]) -> [String: Any] {
        var t: [String: Any] = ["appAccountToken": user, "productId": "handz.pro.monthly", "transactionId": "t2", "originalTransactionId": "t1",
                                "purchaseDate": t0, "expiresDate": t0 + 2_592_000_000, "price": 9990, "currency": "USD", "environment": "Production"]
        t.merge(extra) { $1 }
        return t
    }

    public static func apple(_ type: String, _ subtype: String? = nil, tx: [String: Any]? = transaction(), renewal: [String: Any]? = nil, env: String = "Production") -> String {
        var data: [String: Any] = ["environment": env, "bundleId": "com.handz.app"]
        if let tx { data["signedTransactionInfo"] = tx }
        if let renewal { data["signedRenewalInfo"] = renewal }
        var n: [String: Any] = ["notificationType": type, "notificationUUID": "n-\(type)-\(subtype ?? "")", "signedDate": t0 + 60_000, "data": data]
        if let subtype { n["subtype"] = subtype }
        return json(n)
    }

    public static func revenuecat(_ type: String, _ extra: [String: Any] = [:]) -> String {
        var e: [String: Any] = ["id": "rc-\(type)", "type": type, "app_user_id": user, "event_timestamp_ms": t0 + 60_000, "environment": "PRODUCTION",
                                "product_id": "handz.pro.monthly", "transaction_id": "t2", "original_transaction_id": "t1",
                                "purchased_at_ms": t0, "expiration_at_ms": t0 + 2_592_000_000, "price": 9.99, "price_in_purchased_currency": 9.99, "currency": "USD"]
        e.merge(extra) { $1 }
        return json(["api_version": "1.0", "event": e])
    }

    public static func map(_ line: String, _ source: PayloadSource, profile: Profile = .handz) throws -> PayloadMapping {
        var line = line
        return try line.withUTF8 { b in try StorePayload.map(UnsafeRawBufferPointer(b), from: source, profile: profile) }
    }

    public static func event(_ line: String, _ source: PayloadSource, profile: Profile = .handz) throws -> Event {
        guard case .events(let list) = try map(line, source, profile: profile), list.count == 1 else { throw EventDecodingError("not one event") }
        return list[0]
    }
}
