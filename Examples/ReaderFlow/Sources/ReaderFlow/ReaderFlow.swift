import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IssueGatewayClient

/// Prints each exchange with the gateway and the CDN as it crosses the wire.
final class PrintingTransport: HTTPTransport {
    private let inner = URLSessionTransport()

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await inner.send(request)
        print("    \(request.method) \(Self.shown(request.url)) → \(response.status)")
        return response
    }

    func download(_ request: HTTPRequest, to destination: URL) async throws -> HTTPResponse {
        let response = try await inner.download(request, to: destination)
        print("    GET \(Self.shown(request.url)) → \(response.status)")
        return response
    }

    /// The URL without its token, which is a secret for a few minutes.
    private static func shown(_ url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.queryItems = components.queryItems?.map { $0.name == "token" ? URLQueryItem(name: "token", value: "REDACTED") : $0 }
        return components.string ?? url.absoluteString
    }
}

/// A grant of `publication` to the account from 2000 on, open-ended, given with the admin key
/// (http-api.md: `POST /v1/accounts/{accountId}/grants`): what a publisher's backend does for a
/// print subscriber.
func grant(_ publication: String, to accountId: String, gateway: URL, adminKey: String) async throws {
    var request = URLRequest(url: gateway.appendingPathComponent("v1/accounts/\(accountId)/grants"))
    request.httpMethod = "POST"
    request.setValue("Bearer \(adminKey)", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONSerialization.data(withJSONObject: [
        "source": "print", "externalId": "reader-flow-\(accountId)", "publications": [publication],
        "start": "2000-01-01T00:00:00Z", "end": NSNull(), "note": "Examples/ReaderFlow",
    ])
    let response = try await PrintingTransport().send(HTTPRequest(method: "POST", url: request.url!,
                                                                  headers: request.allHTTPHeaderFields ?? [:],
                                                                  body: request.httpBody))
    guard response.status == 201 || response.status == 200 else {
        throw IssueGatewayError(code: .forbidden, message: "the grant was refused: \(String(decoding: response.body, as: UTF8.self))",
                                status: response.status)
    }
}

/// Downloads the issue's files into a temporary folder and prints them; a missing or refusing CDN
/// is reported, not fatal (the gateway's part of the flow is done by then).
func download(_ issueId: String, of publication: String, with gateway: IssueGatewayClient, cdn: String) async {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reader-flow-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let files: [URL]
    do {
        files = try await gateway.download(publication: publication, issue: issueId, into: folder)
    } catch {
        print("   the CDN at \(cdn) did not serve it: \(error)")
        return
    }
    for file in files {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        print("   \(file.path.replacingOccurrences(of: folder.path, with: "…")): \(size) bytes")
    }
}

@main enum ReaderFlow {
    static func main() async {
        let environment = ProcessInfo.processInfo.environment
        guard let gatewayURL = environment["GATEWAY_URL"].flatMap(URL.init(string:)), let adminKey = environment["ADMIN_KEY"] else {
            print("usage: GATEWAY_URL=http://127.0.0.1:8080 ADMIN_KEY=… [PUBLICATION=monthly] swift run ReaderFlow")
            exit(2)
        }
        let publication = environment["PUBLICATION"] ?? "monthly"
        do {
            try await run(gatewayURL: gatewayURL, adminKey: adminKey, publication: publication)
        } catch {
            print("failed: \(error)")
            exit(1)
        }
    }

    static func run(gatewayURL: URL, adminKey: String, publication: String) async throws {
        let gateway = IssueGatewayClient(baseURL: gatewayURL, transport: PrintingTransport(), pageSize: 50)

        print("1. Launch: continue anonymously")
        let session = try await gateway.continueAnonymously()
        print("   account \(session.accountId), appAccountToken \(session.appAccountToken?.uuidString.lowercased() ?? "none")")

        print("2. Buy: a print subscription granted by the publisher's backend (admin key)")
        try await grant(publication, to: session.accountId, gateway: gatewayURL, adminKey: adminKey)
        let entitlements = try await gateway.entitlements()
        for grant in entitlements.grants {
            print("   grant \(grant.grantId) from \(grant.source): \(grant.publications.joined(separator: ", ")), open-ended: \(grant.end == nil)")
        }

        print("3. List \(publication): every page followed")
        let issues = try await gateway.issues(in: publication)
        let entitled = issues.filter(\.entitled)
        print("   \(issues.count) issues, \(entitled.count) entitled; newest: " +
              issues.prefix(3).map { "\($0.issueId) \($0.reasons.map(\.rawValue))" }.joined(separator: ", "))
        print("   again: each page answered 304 from the kept copy")
        let again = try await gateway.issues(in: publication)
        print("   \(again.count) issues, the same: \(again == issues)")

        guard let newest = entitled.first else {
            print("   nothing to download")
            return
        }
        print("4. Download token for \(newest.issueId)")
        let access = try await gateway.downloadAccess(publication: publication, issue: newest.issueId)
        print("   format \(access.format), expires \(access.expiresAt), \(access.urls.count) URL(s): \(access.urls.map(\.path))")

        print("5. Download \(newest.issueId)")
        await download(newest.issueId, of: publication, with: gateway, cdn: access.urls.first?.host ?? "?")
        print("Done.")
    }
}
