import Foundation
import OutboundHTTP
import Wire

/// Stripe's API over HTTP (stripe.md, Calling Stripe): `Authorization: Bearer <key>`, the pinned
/// `Stripe-Version`, lists paged with `starting_after`, 429/5xx/network failures tried again with
/// backoff inside one deadline (or after Stripe's `Retry-After`), 404 as `notFound`, other 4xx as
/// `refused`. Blocking: it runs on the Stripe pool, never on an event loop.
public struct StripeClient: StripeAPI {
    public let configuration: StripeClientConfiguration
    private let transport: any HTTPTransport
    private let clock: @Sendable () -> Instant
    private let pause: @Sendable (TimeInterval) -> Void

    /// `transport`: Stripe's own kept session; `clock` keeps the deadline and reads an HTTP-date
    /// `Retry-After`; `pause` waits between retries (tests record instead of sleeping).
    public init(configuration: StripeClientConfiguration, transport: any HTTPTransport = URLSessionExchange(),
                clock: @escaping @Sendable () -> Instant = SystemTime.now,
                pause: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) }) {
        self.configuration = configuration; self.transport = transport; self.clock = clock; self.pause = pause
    }

    public func subscription(_ id: String) throws(StripeAPIFailure) -> StripeSubscription {
        try parse(StripeSubscription.init, try get("/v1/subscriptions/\(try pathSegment(id))"))
    }

    public func invoice(_ id: String) throws(StripeAPIFailure) -> StripeInvoice {
        try complete(parse(StripeInvoice.init, try get("/v1/invoices/\(try pathSegment(id))")))
    }

    public func paidInvoices(subscription: String) throws(StripeAPIFailure) -> [StripeInvoice] {
        var out: [StripeInvoice] = []
        for fields in try list("/v1/invoices", [("subscription", subscription), ("status", "paid")]) {
            out.append(try complete(parse(StripeInvoice.init, fields)))
        }
        return out
    }

    public func charge(_ id: String) throws(StripeAPIFailure) -> StripeCharge {
        try parse(StripeCharge.init, try get("/v1/charges/\(try pathSegment(id))"))
    }

    public func invoiceId(paidBy paymentIntent: String) throws(StripeAPIFailure) -> String? {
        let payments = try list("/v1/invoice_payments", [("payment[type]", "payment_intent"), ("payment[payment_intent]", paymentIntent)])
        return try payments.first.map { (fields) throws(StripeAPIFailure) in try parse(StripeInvoicePayment.init, fields).invoice }
    }

    public func customer(_ id: String) throws(StripeAPIFailure) -> StripeCustomer {
        try parse(StripeCustomer.init, try get("/v1/customers/\(try pathSegment(id))"))
    }

    /// Stripe lists events newest first; answered oldest first.
    public func events(createdFrom start: Instant, before end: Instant) throws(StripeAPIFailure) -> [StripeEvent] {
        let listed = try list("/v1/events", StripeCreatedWindow.query(from: start, before: end))
        var out: [StripeEvent] = []
        for fields in listed.reversed() { out.append(try parse(StripeEvent.init, fields)) }
        return out
    }

    // MARK: Requests

    /// An invoice whose embedded lines are a first page gets the rest from `/lines`.
    private func complete(_ invoice: StripeInvoice) throws(StripeAPIFailure) -> StripeInvoice {
        guard invoice.linesHaveMore else { return invoice }
        var invoice = invoice
        invoice.lines = []
        for fields in try list("/v1/invoices/\(try pathSegment(invoice.id))/lines", []) {
            invoice.lines.append(try parse(StripeInvoiceLine.init, fields))
        }
        invoice.linesHaveMore = false
        return invoice
    }

    /// Every object of a list, page after page (`starting_after` the last id).
    private func list(_ path: String, _ query: [(String, String)]) throws(StripeAPIFailure) -> [StripeFields] {
        var out: [StripeFields] = []
        var after: String?
        for _ in 0..<configuration.maximumPages {
            var asked = query + [("limit", String(configuration.pageSize))]
            if let after { asked.append(("starting_after", after)) }
            let page: (items: [StripeFields], hasMore: Bool)
            do { page = try get(path, asked).list() } catch { throw .unavailable("an unreadable list from \(path): \(error)") }
            out += page.items
            guard page.hasMore, let last = try page.items.last.map({ (f) throws(StripeAPIFailure) in try parse({ (f) throws(StripeParseError) in try f.requiredString("id") }, f) }) else {
                return out
            }
            after = last
        }
        throw .unavailable("\(path) has more than \(configuration.maximumPages) pages")
    }

    private func get(_ path: String, _ query: [(String, String)] = []) throws(StripeAPIFailure) -> StripeFields {
        let url = try url(path, query)
        let headers = ["Authorization": "Bearer \(configuration.apiKey)", "Stripe-Version": configuration.apiVersion,
                       "Accept": "application/json"]
        let deadline = CallDeadline(seconds: configuration.deadline, from: clock())
        var attempt = 0
        while true {
            attempt += 1
            let left = deadline.remaining(at: clock())
            guard left > 0 else { throw .unavailable("\(path): the deadline passed after \(attempt - 1) attempt(s)") }
            switch try exchange(url, path, headers: headers, timeout: min(configuration.requestTimeout, left)) {
            case .answered(let fields):
                return fields
            case .retry(let why, let asked):
                guard let wait = configuration.retry.pause(afterFailures: attempt, serviceWait: asked,
                                                           remaining: deadline.remaining(at: clock())) else {
                    throw .unavailable("\(path): \(why) after \(attempt) attempt(s)", retryAfterSeconds: asked)
                }
                if wait > 0 { pause(wait) }
            }
        }
    }

    /// What one request leads to when it is not a failure for good.
    private enum Attempt {
        case answered(StripeFields)
        /// 429, 5xx or no answer; `asked` is Stripe's `Retry-After` in seconds.
        case retry(String, asked: Int?)
    }

    private func exchange(_ url: URL, _ path: String, headers: [String: String], timeout: TimeInterval) throws(StripeAPIFailure) -> Attempt {
        let answer: HTTPExchangeResult
        do {
            answer = try transport.send(method: "GET", url: url, headers: headers, body: nil, timeout: timeout,
                                        maximumResponseBytes: StripeParserLimits.maximumBodyBytes)
        } catch {
            return .retry("\(error)", asked: nil)
        }
        let body = [UInt8](answer.body)
        switch answer.statusCode {
        case 200..<300:
            do { return .answered(try StripeFields.parse(body)) } catch { throw .unavailable("an unreadable answer from \(path): \(error)") }
        case 404:
            throw .notFound(path)
        case 429, 500...:
            return .retry("HTTP \(answer.statusCode)", asked: RetryAfterField.seconds(answer.headers["retry-after"], now: clock()))
        default:
            throw .refused(status: answer.statusCode, message: Self.errorMessage(body))
        }
    }

    private func url(_ path: String, _ query: [(String, String)]) throws(StripeAPIFailure) -> URL {
        var text = configuration.baseURL.absoluteString
        if text.hasSuffix("/") { text.removeLast() }
        text += path
        if !query.isEmpty { text += "?" + query.map { Self.escape($0.0) + "=" + Self.escape($0.1) }.joined(separator: "&") }
        guard let url = URL(string: text) else { throw .refused(status: 0, message: "cannot make a URL of \(path)") }
        return url
    }

    /// Stripe's ids are letters, digits and `_`: anything else is not one of its ids.
    private func pathSegment(_ id: String) throws(StripeAPIFailure) -> String {
        guard !id.isEmpty, id.utf8.count <= 255,
              id.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 95 })
        else { throw .notFound("an id Stripe would not give: \(id.prefix(64))") }
        return id
    }

    /// RFC 3986 §2.3 unreserved characters pass; everything else (brackets included) is escaped.
    private static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case 48...57, 65...90, 97...122, 45, 46, 95, 126: out.append(Character(UnicodeScalar(byte)))
            default: out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Stripe's `{"error": {"message"}}`, or the status alone.
    private static func errorMessage(_ body: [UInt8]) -> String {
        guard let fields = try? StripeFields.parse(body), let error = try? fields.fields("error"),
              let message = try? error.string("message") else { return "no message" }
        return message
    }

    private func parse<T>(_ make: (StripeFields) throws(StripeParseError) -> T, _ fields: StripeFields) throws(StripeAPIFailure) -> T {
        do { return try make(fields) } catch { throw .unavailable("an unreadable answer: \(error)") }
    }
}
