import Foundation
@testable import GatewayConfiguration
import GooglePlayKit
import GooglePlaySimulator
import TestSupport
import Wire

/// A gateway (in process) configured for Google Play against the simulator on a real socket: the
/// simulator's service-account key file, API and JWKS URLs, a push audience and email; both
/// clocks moved together. The catalog has a publication `play` with an issue on the 15th of each
/// month from February to June 2026 (and `p4b` on April 28th), products `play.basic` and
/// `play.premium` (auto-renewable, Play ids `basic` and `premium`) and `play.issue.p2` (the single
/// issue p2, Play id `issue_p2`). On a `.socket` gateway the simulator's steps push to it.
package final class GooglePlayGateway: @unchecked Sendable {
    package static let audience = "https://gateway.test/v1/googleplay/notifications"
    package let simulator: GooglePlaySimulator
    package let server: GooglePlaySimulatorServer
    package let keyFile: URL
    package let h: GatewayHarness

    package init(transport: GatewayHarness.Transport = .inProcess, configure: (inout Configuration) -> Void = { _ in }) throws {
        guard let simulator = GooglePlaySimulator(now: GatewayHarness.start) else { throw HarnessError.unexpected("no RSA keys") }
        self.simulator = simulator
        server = try GooglePlaySimulatorServer(simulator: simulator).start()
        keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("gp-key-\(UUID().uuidString).json")
        guard let json = simulator.serviceAccountKeyFile(tokenURL: server.tokenURL).json() else { throw HarnessError.unexpected("no key") }
        try Data(json.utf8).write(to: keyFile)
        let server = server, keyFile = keyFile
        h = try GatewayHarness(transport: transport, configure: { c in
            c.googlePlay.packages = [simulator.packageName]
            c.googlePlay.serviceAccountPath = keyFile.path
            c.googlePlay.apiURL = server.baseURL.absoluteString
            c.googlePlay.certsURL = server.certsURL.absoluteString
            c.googlePlay.pushAudience = Self.audience
            c.googlePlay.pushEmail = simulator.pushEmail
            c.googlePlay.threads = 2
            configure(&c)
        })
        if transport == .socket {
            server.pushTarget = PushTarget(url: URL(string: "http://127.0.0.1:\(h.port)/v1/googleplay/notifications")!,
                                           audience: Self.audience)
        }
        try seedCatalog()
    }

    deinit {
        h.stop()
        server.stop()
        try? FileManager.default.removeItem(at: keyFile)
    }

    package func advance(days: Int64) {
        simulator.advance(seconds: days * 86_400)
        h.clock.advance(seconds: days * 86_400)
    }

    private func seedCatalog() throws {
        let admin = GatewayHarness.adminKey
        _ = try h.client.put("/v1/publications/play", as: admin, json: #"{"title":"The Play"}"#)
        for (id, day) in [("p1", "2026-02-15"), ("p2", "2026-03-15"), ("p3", "2026-04-15"), ("p4b", "2026-04-28"),
                          ("p5", "2026-05-15"), ("p6", "2026-06-15")] {
            let created = try h.client.post("/v1/publications/play/issues", as: admin,
                                            json: GatewayHarness.issueBody(id: id, publishedAt: day + "T00:00:00Z",
                                                                           paths: ["/content/play/\(id).pdf"]))
            guard created.status == 201 else { throw HarnessError.unexpected(created.text) }
        }
        for (id, body) in [
            ("play.basic", #"{"kind":"autoRenewable","grants":["play"],"subscriptionGroup":"play","level":2,"store":"googlePlay","storeProductId":"basic"}"#),
            ("play.premium", #"{"kind":"autoRenewable","grants":["play"],"subscriptionGroup":"play","level":1,"store":"googlePlay","storeProductId":"premium"}"#),
            ("play.issue.p2", #"{"kind":"issue","grants":["play"],"issue":{"publicationId":"play","issueId":"p2"},"store":"googlePlay","storeProductId":"issue_p2"}"#),
        ] {
            let put = try h.client.put("/v1/products/\(id)", as: admin, json: body)
            guard put.status == 201 else { throw HarnessError.unexpected(put.text) }
        }
    }

    /// `POST /v1/accounts/{id}/googleplay/purchases` as the reader's app sends it.
    package func post(_ account: (id: String, token: String), productId: String, token: String,
              packageName: String? = nil) throws -> APIResponse {
        try h.client.post("/v1/accounts/\(account.id)/googleplay/purchases", as: account.token, json: """
            {"packageName":"\(packageName ?? simulator.packageName)","productId":"\(productId)","purchaseToken":"\(token)"}
            """)
    }

    /// The reader buys `productId` in Google Play (an upgrade or downgrade when `linkedTo` names
    /// the token it replaces) and the app posts the purchase, which must be taken (200).
    package func subscribe(_ account: (id: String, token: String), token: String, productId: String,
                           linkedTo: String? = nil) throws {
        try simulator.buy(token: token, productId: productId, linkedTo: linkedTo)
        let posted = try post(account, productId: productId, token: token)
        guard posted.status == 200 else { throw HarnessError.unexpected("\(posted.status): \(posted.text)") }
    }

    /// A Pub/Sub push of `notification` with Google's OIDC token (or `authorization` as given).
    package func push(_ notification: SimulatedNotification, authorization: String? = nil) throws -> APIResponse {
        let bearer = authorization ?? "Bearer " + simulator.pushToken(audience: Self.audience)
        return try h.client.send("POST", "/v1/googleplay/notifications", headers: [("Authorization", bearer)],
                                 body: notification.pushBody())
    }

    /// Ids of the `play` issues the account may download now.
    package func entitled(_ account: (id: String, token: String)) throws -> [String] {
        let answer = try h.client.get("/v1/accounts/\(account.id)/issues?publication=play&entitled=true", as: account.token)
        guard answer.status == 200 else { throw HarnessError.unexpected(answer.text) }
        return answer.objects("issues").compactMap { $0["id"] as? String }.sorted()
    }

    package func subscriptions(_ account: (id: String, token: String)) throws -> [[String: Any]] {
        let answer = try h.client.get("/v1/accounts/\(account.id)/entitlements", as: account.token)
        guard answer.status == 200 else { throw HarnessError.unexpected(answer.text) }
        return answer.objects("subscriptions")
    }
}
