import Entitle
import Foundation
import IssueCatalog
import Wire

/// A subscription's transactions as the history endpoint gave them, every one verified.
public struct ServerAPIHistory: Sendable, Equatable {
    public var environment: StoreEnvironment
    public var transactions: [VerifiedPayload]
}

/// One entry of Get All Subscription Statuses' `lastTransactions`.
public struct ServerAPISubscriptionStatus: Sendable, Equatable {
    /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public var status: Int?
    public var originalTransactionId: String
    public var transaction: VerifiedPayload?
    public var renewalInfo: VerifiedPayload?
}

/// One entry of the notification history: the notification as Apple sent it (verified when it
/// is taken, like any V2 notification) and how its deliveries went.
public struct ServerAPINotificationRecord: Sendable, Equatable {
    public var signedPayload: String
    /// `sendAttemptResult` of each attempt (`SUCCESS`, `TIMED_OUT`, …), oldest first.
    public var sendAttemptResults: [String]
}

/// Apple's answer to a renewal date extension.
public struct ServerAPIExtensionResult: Sendable, Equatable {
    public var success: Bool
    public var originalTransactionId: String?
    public var webOrderLineItemId: String?
    public var effectiveDate: Instant?
}

/// The strict reading of an answer's JSON: a field of the wrong type is a malformed answer.
struct ServerAPIAnswer {
    let object: JSONObject
    let name: String

    init(_ body: Data, name: String, limit: Int) throws(ServerAPIError) {
        let parsed: JSONValue
        do { parsed = try JSONParser(limits: JSONLimits(maxBytes: limit, maxDepth: 8)).parse(bytes: Array(body)) } catch {
            throw .malformedResponse("\(name): not JSON")
        }
        guard let object = parsed.objectValue else { throw .malformedResponse("\(name): not a JSON object") }
        self.object = object
        self.name = name
    }

    init(_ object: JSONObject, name: String) { self.object = object; self.name = name }

    private func value(_ field: String) -> JSONValue? {
        guard let value = object[field], !value.isNull else { return nil }
        return value
    }

    private func bad(_ field: String) -> ServerAPIError { .malformedResponse("\(name): bad field \(field)") }

    func string(_ field: String) throws(ServerAPIError) -> String? {
        guard let value = value(field) else { return nil }
        guard let string = value.stringValue else { throw bad(field) }
        return string
    }

    func integer(_ field: String) throws(ServerAPIError) -> Int64? {
        guard let value = value(field) else { return nil }
        if case .number(let number) = value, number.isFinite, abs(number) < 9e15 { return Int64(number) }
        guard let integer = value.integerValue else { throw bad(field) }
        return integer
    }

    func bool(_ field: String) throws(ServerAPIError) -> Bool? {
        guard let value = value(field) else { return nil }
        guard let bool = value.boolValue else { throw bad(field) }
        return bool
    }

    func array(_ field: String) throws(ServerAPIError) -> [JSONValue] {
        guard let value = value(field) else { return [] }
        guard let array = value.arrayValue else { throw bad(field) }
        return array
    }

    func objects(_ field: String) throws(ServerAPIError) -> [ServerAPIAnswer] {
        var out: [ServerAPIAnswer] = []
        for item in try array(field) {
            guard let object = item.objectValue else { throw bad(field) }
            out.append(ServerAPIAnswer(object, name: "\(name).\(field)"))
        }
        return out
    }

    func strings(_ field: String) throws(ServerAPIError) -> [String] {
        var out: [String] = []
        for item in try array(field) {
            guard let string = item.stringValue else { throw bad(field) }
            out.append(string)
        }
        return out
    }
}
