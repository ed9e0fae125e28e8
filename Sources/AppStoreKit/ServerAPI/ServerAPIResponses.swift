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
    let name: String
    private let fields: JSONFieldReader<ServerAPIFailure>

    init(_ body: Data, name: String, limit: Int) throws(ServerAPIFailure) {
        let parsed: JSONValue
        do { parsed = try JSONParser(limits: JSONLimits(maxBytes: limit, maxDepth: 8)).parse(bytes: Array(body)) } catch {
            throw .malformedResponse("\(name): not JSON")
        }
        guard let object = parsed.objectValue else { throw .malformedResponse("\(name): not a JSON object") }
        self.init(object, name: name)
    }

    init(_ object: JSONObject, name: String) {
        self.name = name
        fields = JSONFieldReader(object) { .malformedResponse("\(name): bad field \($0)") }
    }

    func string(_ field: String) throws(ServerAPIFailure) -> String? { try fields.string(field) }
    func bool(_ field: String) throws(ServerAPIFailure) -> Bool? { try fields.bool(field) }
    func strings(_ field: String) throws(ServerAPIFailure) -> [String] { try fields.elements(field) { $0.stringValue } }

    /// Apple's dates and ids are integers; a JSON number with a fraction is read toward zero.
    func integer(_ field: String) throws(ServerAPIFailure) -> Int64? {
        try fields.typed(field) { value in
            if case .number(let number) = value, number.isFinite, abs(number) < 9e15 { return Int64(number) }
            return value.integerValue
        }
    }

    func objects(_ field: String) throws(ServerAPIFailure) -> [ServerAPIAnswer] {
        try fields.elements(field) { $0.objectValue }.map { ServerAPIAnswer($0, name: "\(name).\(field)") }
    }
}
