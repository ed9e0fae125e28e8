import Foundation
@testable import GatewayConfiguration
import OpenIDConnect
import Testing

/// readers.md, Configuration and Decisions: `ISSUE_GATEWAY_IDENTITY_PROVIDERS` names a JSON file;
/// `apple` and `google` take the published issuers and key URLs they leave out, any other id must
/// give both, and no algorithm but RS256 and ES256 is taken.
@Suite struct E31ProvidersFileTests {
    func decode(_ text: String) throws(IdentityProvidersFile.Invalid) -> [IdentityProvider] {
        try IdentityProvidersFile.decode(Array(text.utf8))
    }

    @Test func e31AppleAndGoogleTakeTheirPublishedIssuersAndKeys() throws {
        let providers = try decode("""
            [{"id": "apple", "clientIds": ["com.example.app"]},
             {"id": "google", "clientIds": ["1.apps.googleusercontent.com"], "algorithms": ["RS256"]},
             {"id": "publisher", "issuer": "https://id.example", "jwksUrl": "https://id.example/keys", "clientIds": ["web"]}]
            """)
        #expect(providers.map(\.id) == ["apple", "google", "publisher"])
        #expect(providers[0].issuers == ["https://appleid.apple.com"])
        #expect(providers[0].jwksURL.absoluteString == "https://appleid.apple.com/auth/keys")
        #expect(providers[0].algorithms == ["RS256", "ES256"])
        #expect(providers[1].issuers == ["https://accounts.google.com", "accounts.google.com"])
        #expect(providers[1].jwksURL.absoluteString == "https://www.googleapis.com/oauth2/v3/certs")
        #expect(providers[1].algorithms == ["RS256"])
        #expect(providers[2].issuers == ["https://id.example"] && providers[2].clientIds == ["web"])
        let replaced = try decode(#"[{"id": "apple", "issuer": "https://apple.test", "jwksUrl": "http://127.0.0.1:9/k", "clientIds": ["a"]}]"#)
        #expect(replaced[0].issuers == ["https://apple.test"] && replaced[0].jwksURL.absoluteString == "http://127.0.0.1:9/k")
    }

    @Test func e31AProviderHalfConfiguredIsRefused() {
        let refused = [
            #"[{"id": "publisher", "jwksUrl": "https://id.example/keys", "clientIds": ["web"]}]"#,
            #"[{"id": "publisher", "issuer": "https://id.example", "clientIds": ["web"]}]"#,
            #"[{"id": "apple"}]"#,
            #"[{"id": "apple", "clientIds": []}]"#,
            #"[{"id": "apple", "clientIds": ["a"], "algorithms": ["HS256"]}]"#,
            #"[{"id": "apple", "clientIds": ["a"], "algorithms": ["none"]}]"#,
            #"[{"id": "apple", "clientIds": ["a"], "algorithms": ["PS256"]}]"#,
            #"[{"id": "apple", "clientIds": ["a"]}, {"id": "apple", "clientIds": ["b"]}]"#,
            #"[{"id": "apple", "clientIds": ["a"], "jwksUrl": "file:///etc/keys"}]"#,
            #"[{"id": "apple", "clientIds": ["a"], "clientSecret": "x"}]"#,
            #"{"id": "apple"}"#,
        ]
        for text in refused {
            #expect(throws: IdentityProvidersFile.Invalid.self, "\(text)") { try decode(text) }
        }
    }

    @Test func e31TheSettingReadsTheFileAndABadOneStopsTheStart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let good = folder.appendingPathComponent("providers.json"), bad = folder.appendingPathComponent("bad.json")
        try Data(#"[{"id": "google", "clientIds": ["c"]}]"#.utf8).write(to: good)
        try Data(#"[{"id": "mine", "clientIds": ["c"]}]"#.utf8).write(to: bad)
        let loaded = try Configuration.load(environment: ["ISSUE_GATEWAY_IDENTITY_PROVIDERS": good.path])
        #expect(loaded.identityProviders.map(\.id) == ["google"])
        #expect(try Configuration.load(environment: [:]).identityProviders.isEmpty)
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["ISSUE_GATEWAY_IDENTITY_PROVIDERS": bad.path])
        }
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["ISSUE_GATEWAY_IDENTITY_PROVIDERS": folder.appendingPathComponent("none").path])
        }
    }
}
