@testable import AppStoreKit
import AppStoreSimulator
import Foundation
@testable import GatewayConfiguration
import HTTPServer
import Testing
import Wire

/// `ISSUE_GATEWAY_APPSTORE_API_*` (http-api.md Configuration): read from the
/// environment, the `.p8` checked at start with a clear error, and nothing built without them.
@Suite struct ServerAPIConfigurationTests {
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("serverapi-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func write(_ name: String, _ text: String) throws -> String {
            let path = url.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    private func configuration(_ folder: Folder, key: String?) throws -> Configuration {
        let authority = try TestCertificateAuthority(options: .init(issuedAt: Instant(millisecondsSinceEpoch: 1_700_000_000_000)))
        var environment = ["ISSUE_GATEWAY_BUNDLE_ID": "org.example.reader",
                           "ISSUE_GATEWAY_APPLE_ROOT_CERTS": try folder.write("root.pem", authority.root.pem),
                           "ISSUE_GATEWAY_APPSTORE_API_KEY_ID": "KEY1", "ISSUE_GATEWAY_APPSTORE_API_ISSUER_ID": "issuer",
                           "ISSUE_GATEWAY_APPSTORE_API_SANDBOX_URL": "http://127.0.0.1:9/sandbox"]
        environment["ISSUE_GATEWAY_APPSTORE_API_PRIVATE_KEY"] = key
        return try Configuration.load(environment: environment)
    }

    @Test func credentialsBuildAClientWithTheConfiguredURLs() throws {
        let folder = try Folder()
        let path = try folder.write("AuthKey.p8", try #require(SigningKey()?.pkcs8PEM))
        let services = try AppStoreServices.from(try configuration(folder, key: path), counters: { _ in })
        let client = try #require(services.serverAPI)
        #expect(client.configuration.productionURL == ServerAPIConfiguration.appleProductionURL)
        #expect(client.configuration.sandboxURL.absoluteString == "http://127.0.0.1:9/sandbox")
    }

    @Test func aWrongKeyFileStopsTheStartNamingTheSetting() throws {
        let folder = try Folder()
        let path = try folder.write("AuthKey.p8", "not a key")
        #expect {
            _ = try AppStoreServices.from(try configuration(folder, key: path), counters: { _ in })
        } throws: { error in
            "\(error)".contains("ISSUE_GATEWAY_APPSTORE_API_PRIVATE_KEY") && "\(error)".contains(path)
        }
    }

    @Test func partOfTheCredentialsIsAStartError() throws {
        let folder = try Folder()
        #expect {
            _ = try AppStoreServices.from(try configuration(folder, key: nil), counters: { _ in })
        } throws: { error in "\(error)".contains("must be set together") }
    }

    @Test func noCredentialsNoClient() throws {
        #expect(try AppStoreServices.from(Configuration(), counters: { _ in }).serverAPI == nil)
    }

    @Test func serverAPIRequestsAreCountedByEndpointEnvironmentAndOutcome() {
        let metrics = Metrics()
        let observe = GatewayCounters.serverAPICallObserver(metrics)
        observe(ServerAPIAttempt(endpoint: "history", environment: .production, step: .tryOtherEnvironment(otherwise: .notFound)))
        observe(ServerAPIAttempt(endpoint: "history", environment: .sandbox, step: .retry(.rateLimited(retryAfter: nil))))
        observe(ServerAPIAttempt(endpoint: "history", environment: .sandbox, step: .success(Data())))
        let text = metrics.render()
        #expect(text.contains(#"issue_gateway_appstore_server_api_calls_total{endpoint="history",environment="production",outcome="otherEnvironment"} 1"#))
        #expect(text.contains(#"issue_gateway_appstore_server_api_calls_total{endpoint="history",environment="sandbox",outcome="rateLimited"} 1"#))
        #expect(text.contains(#"issue_gateway_appstore_server_api_calls_total{endpoint="history",environment="sandbox",outcome="success"} 1"#))
    }
}
