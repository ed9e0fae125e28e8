import AppStoreKit
import Foundation
import IssueCatalog
import Wire

/// Bodies of the simulator's control routes (docs/appstore-simulator.md). Receipts travel in the
/// body, not the path, because base64 holds `/`.
public enum SimulatorControl {
    /// `{"receipt": …, "<field>": …}`: a receipt and one thing to put in it (a whole history, a
    /// transaction, a subscription's renewal info).
    struct ReceiptChange<Value: ReceiptChangeValue>: Decodable {
        var receipt: String
        var value: Value
        init(from decoder: any Decoder) throws {
            let f = try ScriptFields(decoder, known: ["receipt", Value.controlField])
            receipt = try f.required("receipt"); value = try f.required(Value.controlField)
        }
    }

    struct Refund: Decodable {
        var receipt: String
        var transactionId: String
        var at: Instant?
        var reason: Int
        /// E24: V2's `revocationType` and `revocationPercentage`.
        var type: String?
        var percentage: Int?
        var reverse: Bool
        init(from decoder: any Decoder) throws {
            let f = try ScriptFields(decoder, known: ["receipt", "transactionId", "at", "reason", "type", "percentage", "reverse"])
            receipt = try f.required("receipt"); transactionId = try f.required("transactionId")
            at = try f.instant("at"); reason = try f.optional("reason") ?? 0; reverse = try f.optional("reverse") ?? false
            type = try f.optional("type"); percentage = try f.optional("percentage")
        }
    }

    struct Outage: Decodable {
        var receipt: String
        var times: Int
        init(from decoder: any Decoder) throws {
            let f = try ScriptFields(decoder, known: ["receipt", "times"])
            receipt = try f.required("receipt"); times = try f.required("times")
        }
    }

    struct Receipt: Decodable {
        var receipt: String
        init(from decoder: any Decoder) throws {
            receipt = try ScriptFields(decoder, known: ["receipt"]).required("receipt")
        }
    }

    /// Asks the simulator to build a notification about a receipt and POST it to a gateway.
    public struct Notify: Decodable, Sendable {
        var gateway: URL
        var receipt: String
        var version: Int
        var type: String
        var subtype: String?
        var transactionId: String?
        var notificationUUID: String?
        /// V1 only: overrides the script's shared secret (to see a gateway refuse it).
        var password: String?
        /// V2 only: record a failed delivery in the notification history without sending it.
        var drop: Bool = false

        public init(gateway: URL, receipt: String, version: Int, type: String, subtype: String? = nil, transactionId: String? = nil,
             notificationUUID: String? = nil, password: String? = nil) {
            self.gateway = gateway; self.receipt = receipt; self.version = version; self.type = type
            self.subtype = subtype; self.transactionId = transactionId; self.notificationUUID = notificationUUID
            self.password = password
        }

        public init(from decoder: any Decoder) throws {
            let f = try ScriptFields(decoder, known: ["gateway", "receipt", "version", "type", "subtype", "transactionId",
                                                      "notificationUUID", "password", "drop"])
            let text: String = try f.required("gateway")
            guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "gateway must be an http(s) URL"))
            }
            let version: Int = try f.optional("version") ?? 2
            guard version == 1 || version == 2 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "version must be 1 or 2"))
            }
            self.init(gateway: url, receipt: try f.required("receipt"), version: version, type: try f.required("type"),
                      subtype: try f.optional("subtype"), transactionId: try f.optional("transactionId"),
                      notificationUUID: try f.optional("notificationUUID"), password: try f.optional("password"))
            drop = try f.optional("drop") ?? false
        }

        /// The JSON the CLI sends to the control route.
        public var body: Data {
            var fields: [String: Any] = ["gateway": gateway.absoluteString, "receipt": receipt, "version": version, "type": type]
            fields["subtype"] = subtype
            fields["transactionId"] = transactionId
            fields["notificationUUID"] = notificationUUID
            fields["password"] = password
            if drop { fields["drop"] = true }
            return ReceiptRendering.json(fields)
        }
    }

    /// `POST /simulator/server-api`: the gateway's public key (base64 DER SubjectPublicKeyInfo),
    /// key and issuer ids, failure modes, where notifications go. Absent fields stay as they are.
    struct ServerAPI: Decodable {
        var publicKey: String?
        var keyId: String?
        var issuerId: String?
        var neverReleased: Bool?
        var rateLimitedRequests: Int?
        var notificationURL: URL?

        init(from decoder: any Decoder) throws {
            let f = try ScriptFields(decoder, known: ["publicKey", "keyId", "issuerId", "neverReleased", "rateLimitedRequests",
                                                      "notificationURL"])
            publicKey = try f.optional("publicKey"); keyId = try f.optional("keyId"); issuerId = try f.optional("issuerId")
            neverReleased = try f.optional("neverReleased"); rateLimitedRequests = try f.optional("rateLimitedRequests")
            notificationURL = try f.optional("notificationURL", as: String.self).flatMap(URL.init(string:))
        }

        func apply(to simulator: AppStoreSimulator) throws(AppStoreSimulator.Failure) {
            var key: ES256PublicKey?
            if let publicKey {
                guard let der = Data(base64Encoded: publicKey), let parsed = ES256PublicKey(der: der) else {
                    throw .invalid("publicKey must be base64 of a P-256 SubjectPublicKeyInfo")
                }
                key = parsed
            }
            guard (rateLimitedRequests ?? 0) >= 0 else { throw .invalid("rateLimitedRequests must be >= 0") }
            simulator.configureServerAPI { settings in
                if let key { settings.publicKey = key }
                if let keyId { settings.keyId = keyId }
                if let issuerId { settings.issuerId = issuerId }
                if let neverReleased { settings.neverReleased = neverReleased }
                if let rateLimitedRequests { settings.rateLimitedRequests = rateLimitedRequests }
                if let notificationURL { settings.notificationURL = notificationURL }
            }
        }
    }
}

/// What a control route puts into a receipt, and the body field that carries it.
protocol ReceiptChangeValue: Decodable {
    static var controlField: String { get }
}

extension ScriptedReceipt: ReceiptChangeValue { static let controlField = "history" }
extension ScriptedTransaction: ReceiptChangeValue { static let controlField = "transaction" }
extension ScriptedRenewal: ReceiptChangeValue { static let controlField = "renewal" }
