import Foundation
import OutboundHTTP
import Wire

/// Pub/Sub's pull API (REST v1) on one subscription, for gateways no public endpoint reaches:
/// `POST …/{subscription}:pull` and `:acknowledge`. Against the emulator (Google's
/// `PUBSUB_EMULATOR_HOST` convention) no credentials are sent; against Google the service
/// account's token with the Pub/Sub scope.
public final class PubSubPullClient: Sendable {
    public static let defaultBaseURL = URL(string: "https://pubsub.googleapis.com")!
    public static let pubSubScope = "https://www.googleapis.com/auth/pubsub"
    /// Messages taken per pull: each is stored before the next pull.
    public static let maximumMessages = 100
    static let requestTimeout: TimeInterval = 30
    static let maximumAnswerBytes = 16 << 20

    /// One pulled message: its acknowledgement id and what it says (nil: not a notification the
    /// gateway can read, acknowledged so it is not redelivered forever).
    public struct Received: Sendable {
        public var ackId: String
        public var envelope: Result<PushEnvelope, PlayParseError>
    }

    public let subscription: String
    private let baseURL: URL
    private let tokens: AccessTokens?
    private let transport: any HTTPTransport
    private let clock: @Sendable () -> Instant

    /// `subscription`: `projects/P/subscriptions/S`; `key` nil: no credentials (the emulator).
    public init(subscription: String, baseURL: URL = defaultBaseURL, key: ServiceAccountKey?,
                transport: any HTTPTransport = URLSessionExchange(),
                clock: @escaping @Sendable () -> Instant = SystemTime.now) {
        self.subscription = subscription; self.baseURL = baseURL; self.transport = transport; self.clock = clock
        tokens = key.map { AccessTokens(key: $0, refreshMargin: 300, scope: Self.pubSubScope) }
    }

    public func pull() throws(GooglePlayError) -> [Received] {
        var body = JSONWriter()
        body.object { w in w.field("maxMessages", Self.maximumMessages); w.field("returnImmediately", true) }
        let answer = try call("pull", body.bytes)
        let fields: PlayFields
        do { fields = try PlayFields.parse(answer, limit: Self.maximumAnswerBytes) } catch { throw .malformedResponse(error.description) }
        var received: [Received] = []
        do throws(PlayParseError) {
            for item in try fields.objects("receivedMessages") {
                let ackId = try item.requiredString("ackId")
                guard let message = try item.object("message") else { throw PlayParseError.missingField(item.name("message")) }
                received.append(Received(ackId: ackId, envelope: Result { () throws(PlayParseError) in try PushEnvelope.parse(message: message) }))
            }
        } catch {
            throw .malformedResponse(error.description)
        }
        return received
    }

    public func acknowledge(_ ackIds: [String]) throws(GooglePlayError) {
        guard !ackIds.isEmpty else { return }
        var body = JSONWriter()
        body.object { w in w.key("ackIds"); w.array { w in for id in ackIds { w.string(id) } } }
        _ = try call("acknowledge", body.bytes)
    }

    private func call(_ verb: String, _ body: [UInt8]) throws(GooglePlayError) -> Data {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: "\(text)/v1/\(subscription):\(verb)") else { throw .malformedResponse("no URL for \(subscription)") }
        var headers = ["Content-Type": "application/json"]
        if let tokens {
            let now = clock()
            if let kept = tokens.current(at: now) {
                headers["Authorization"] = "Bearer " + kept
            } else {
                switch tokens.fetch(at: now, transport: transport, timeout: Self.requestTimeout) {
                case .success(let token): headers["Authorization"] = "Bearer " + token
                case .failure(.retryable(let why, _)): throw .unavailable(why)
                case .failure(.final(let error)): throw error
                }
            }
        }
        let answer: HTTPExchangeResult
        do {
            answer = try transport.send(method: "POST", url: url, headers: headers, body: Data(body), timeout: Self.requestTimeout,
                                        maximumResponseBytes: Self.maximumAnswerBytes)
        } catch {
            throw .unavailable("Pub/Sub: \(error)")
        }
        switch GooglePlayStep(answer: answer) {
        case .success(let data): return data
        case .refreshToken: tokens?.forget(); throw .unauthorized("Pub/Sub answered 401")
        case .retry(let why, _): throw .unavailable("Pub/Sub: \(why)")
        case .failure(let error): throw error
        }
    }
}
