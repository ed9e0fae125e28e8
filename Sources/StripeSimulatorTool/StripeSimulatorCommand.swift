import CommandLineSupport
import Foundation
import HTTPServer
import StripeKit
import StripeSimulator
import Wire

/// `stripe-simulator`: plays one scenario for an account against a gateway (the events signed and
/// delivered with retries), then, with `--listen`, serves the simulated account's API until stopped.
enum StripeSimulatorCommand {
    static let help = """
        usage: stripe-simulator --webhook GATEWAY_URL --secret WHSEC --account ACCOUNT_ID
                                [--scenario NAME] [--shape basil|legacy] [--price PRICE]
                                [--listen HOST:PORT --api-key KEY]

        Plays scenario NAME (default lifecycle) for ACCOUNT_ID, the gateway's account id, named as
        the Checkout Session's client_reference_id, and delivers every event it makes to
        GATEWAY_URL (the gateway's /v1/stripe/webhooks), signed with WHSEC at the current time and
        tried again on a failure. Scenarios: subscribe (a paid checkout), trial (a 14-day trial, then
        a renewal), lifecycle (checkout, renewal, a failed payment recovered, cancellation at period
        end), refund (checkout, renewal, full refund), dispute (checkout, renewal, a lost dispute).
        Events are rendered in SHAPE (default basil). PRICE (default price_monthly_monthly, the
        sample catalog's) is the subscription's price. With --listen it then serves the account's
        API (ISSUE_GATEWAY_STRIPE_API_URL, ISSUE_GATEWAY_STRIPE_API_KEY=KEY) until SIGTERM or SIGINT.
        """

    static func run(_ words: ArraySlice<String>, _ console: Console) throws(CLIError) {
        let arguments = try Arguments.parse(words, options: ["webhook", "secret", "account", "scenario", "shape", "price",
                                                             "listen", "api-key"])
        if arguments.wantsHelp { return console.out(help) }
        try arguments.expectPositionals(0, "")
        guard let webhook = URL(string: try arguments.required("webhook")) else { throw .usage("--webhook is not a URL") }
        let secret = try arguments.required("secret"), account = try arguments.required("account")
        guard let shape = StripeShape.allCases.first(where: { "\($0)" == (try? arguments.optional("shape")) ?? "basil" }) else {
            throw .usage("--shape is basil or legacy")
        }
        let price = try arguments.optional("price") ?? "price_monthly_monthly"
        let start = Instant(millisecondsSinceEpoch: Int64(Date().timeIntervalSince1970 * 1000))
        let stripe = StripeSimulator(start: start, webhookShape: shape)
        try play(try arguments.optional("scenario") ?? "lifecycle", on: stripe, account: account, price: price)
        let delivery = StripeEventDelivery(endpoint: webhook, secret: secret) { Int64(Date().timeIntervalSince1970) }
        let outcomes = delivery.deliver(stripe.events.map { (id: $0.id, body: $0.body) })
        for (outcome, event) in zip(outcomes, stripe.events) {
            console.out("\(event.id) \(event.type): \(outcome.statuses.map(String.init).joined(separator: ", "))")
        }
        guard outcomes.allSatisfy(\.taken) else { throw .failure("the gateway did not take every event") }
        guard let listen = try arguments.optional("listen") else { return }
        let address: ListenAddress
        do { address = try ListenAddress(parsing: listen) } catch { throw .usage("--listen: \(error)") }
        let server = StripeSimulatorServer(simulator: stripe, apiKey: try arguments.required("api-key"),
                                           host: address.host, port: Int(address.port))
        do {
            try server.runUntilSignalled { url in console.err("stripe-simulator: ISSUE_GATEWAY_STRIPE_API_URL=\(url)") }
        } catch { throw .failure("cannot serve on \(listen): \(error)") }
    }

    private static func play(_ scenario: String, on stripe: StripeSimulator, account: String, price: String) throws(CLIError) {
        let month: Int64 = 30 * 86_400
        switch scenario {
        case "subscribe":
            stripe.checkout(account: account, price: price, product: "prod_" + price, amount: 990)
        case "trial":
            let sub = stripe.checkout(account: account, price: price, product: "prod_" + price, amount: 990, trialDays: 14)
            stripe.renew(sub)
        case "lifecycle":
            let sub = stripe.checkout(account: account, price: price, product: "prod_" + price, amount: 990)
            stripe.renew(sub)
            stripe.failRenewal(sub)
            stripe.recover(sub, afterSeconds: 2 * 86_400)
            stripe.advance(seconds: month / 2)
            stripe.cancelAtPeriodEnd(sub)
        case "refund":
            let sub = stripe.checkout(account: account, price: price, product: "prod_" + price, amount: 990)
            stripe.renew(sub)
            stripe.refund(sub, full: true)
        case "dispute":
            let sub = stripe.checkout(account: account, price: price, product: "prod_" + price, amount: 990)
            stripe.renew(sub)
            if let dispute = stripe.openDispute(sub) { stripe.closeDispute(dispute, won: false) }
        default:
            throw .usage("unknown scenario \(scenario)")
        }
    }
}
