import AppStoreKit
import CommandLineSupport
import Entitle
import Foundation
@testable import GatewayConfiguration
import HTTPServer
import OutboundHTTP
@testable import IssueGateway
import TestSupport
import Testing
import Wire

@Suite struct ConfigTests {
    @Test func defaultsAreTheSpecs() throws {
        let c = try Configuration.load(environment: ["PATH": "/usr/bin", "HOME": "/root"])
        #expect(c.listen == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(c.databasePath == "data/issue-gateway.sqlite")
        #expect(c.catalogFolder == "catalog")
        #expect(c.adminKey == nil && c.tokenKeys == nil)
        #expect(c.tokenTTLSeconds == 300 && c.tokenIssuer == "issue-gateway")
        #expect(c.cdnBaseURL == "http://127.0.0.1:8081")
        #expect(c.edge == EdgeSettings() && c.edge.format == .jws && c.edge.delivery == .query && c.edge.hash == .sha256)
        #expect(c.appStoreProductionURL == "https://buy.itunes.apple.com/verifyReceipt")
        #expect(c.appStoreSandboxURL == "https://sandbox.itunes.apple.com/verifyReceipt")
        #expect(c.appStoreSharedSecret == nil && c.appleRootCertificatePaths.isEmpty)
        #expect(c.bundleId == nil && c.appAppleId == nil)
        #expect(c.acceptSandbox && c.transferPolicy == .transfer && c.graceDays == 0)
        #expect(c.threads == ProcessInfo.processInfo.activeProcessorCount)
    }

    @Test func aSpoolBudgetBelowTheLargestListIsRefused() throws {
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["ISSUE_GATEWAY_SPOOL_MAX": "512MiB"])
        }
        do {
            _ = try Configuration.load(environment: ["ISSUE_GATEWAY_SUBSCRIBER_LIST_MAX": "8GiB"])
            Issue.record("a list larger than the default spool budget was taken")
        } catch {
            #expect(error.setting == "ISSUE_GATEWAY_SPOOL_MAX" && error.message.contains("ISSUE_GATEWAY_SUBSCRIBER_LIST_MAX"))
        }
        let fits = try Configuration.load(environment: ["ISSUE_GATEWAY_SPOOL_MAX": "512MiB",
                                                        "ISSUE_GATEWAY_SUBSCRIBER_LIST_MAX": "512MiB"])
        #expect(fits.spoolMaxBytes == 512 << 20)
    }

    @Test func everyVariableIsRead() throws {
        let secret = Base64URL.encode(Array(repeating: 7, count: 32))
        let c = try Configuration.load(environment: [
            "ISSUE_GATEWAY_LISTEN": "[::1]:9090", "ISSUE_GATEWAY_DATABASE": "/var/lib/ig/db.sqlite",
            "ISSUE_GATEWAY_CATALOG": "none", "ISSUE_GATEWAY_ADMIN_KEY": String(repeating: "k", count: 40),
            "ISSUE_GATEWAY_TOKEN_KEYS": "new:\(secret),old:\(secret)", "ISSUE_GATEWAY_TOKEN_TTL": "3600",
            "ISSUE_GATEWAY_TOKEN_ISSUER": "pub", "ISSUE_GATEWAY_CDN_BASE_URL": "https://cdn.example.com/",
            "ISSUE_GATEWAY_APPSTORE_PRODUCTION_URL": "http://127.0.0.1:9000/verifyReceipt",
            "ISSUE_GATEWAY_APPSTORE_SANDBOX_URL": "http://127.0.0.1:9001/verifyReceipt",
            "ISSUE_GATEWAY_APPSTORE_SHARED_SECRET": "s3cret", "ISSUE_GATEWAY_APPLE_ROOT_CERTS": "/etc/hostname:/etc/hosts",
            "ISSUE_GATEWAY_BUNDLE_ID": "com.example.reader", "ISSUE_GATEWAY_APP_APPLE_ID": "1234567890",
            "ISSUE_GATEWAY_ACCEPT_SANDBOX": "false", "ISSUE_GATEWAY_TRANSFER_POLICY": "keep",
            "ISSUE_GATEWAY_GRACE_DAYS": "3", "ISSUE_GATEWAY_THREADS": "4",
            "ISSUE_GATEWAY_EDGE_FORMAT": "cloudfront", "ISSUE_GATEWAY_EDGE_DELIVERY": "cookie",
            "ISSUE_GATEWAY_EDGE_SECRETS": "n1:secret", "ISSUE_GATEWAY_EDGE_KEY_ID": "K2RSATESTKEY01",
            "ISSUE_GATEWAY_EDGE_PRIVATE_KEY": "/etc/issue-gateway/cloudfront.pem", "ISSUE_GATEWAY_EDGE_HASH": "SHA1",
            "ISSUE_GATEWAY_EDGE_COOKIE_DOMAIN": "example.com",
        ])
        #expect(c.edge.format == .cloudfront && c.edge.delivery == .cookie && c.edge.secrets == "n1:secret")
        #expect(c.edge.keyId == "K2RSATESTKEY01" && c.edge.privateKeyPath == "/etc/issue-gateway/cloudfront.pem")
        #expect(c.edge.hash == .sha1 && c.edge.cookieDomain == "example.com")
        #expect(c.listen == ListenAddress(host: "::1", port: 9090))
        #expect(c.databasePath == "/var/lib/ig/db.sqlite" && c.catalogFolder == nil)
        #expect(c.tokenKeys?.keys.map(\.kid) == ["new", "old"] && c.tokenKeys?.keys[0].secret == Array(repeating: 7, count: 32))
        #expect(c.tokenTTLSeconds == 3600 && c.tokenIssuer == "pub" && c.cdnBaseURL == "https://cdn.example.com")
        #expect(c.appStoreProductionURL == "http://127.0.0.1:9000/verifyReceipt")
        #expect(c.appleRootCertificatePaths == ["/etc/hostname", "/etc/hosts"])
        #expect(c.appAppleId == 1_234_567_890 && c.bundleId == "com.example.reader")
        #expect(!c.acceptSandbox && c.transferPolicy == .keep && c.graceDays == 3 && c.threads == 4)
    }

    @Test(arguments: [
        ("ISSUE_GATEWAY_LISTEN", "8080"), ("ISSUE_GATEWAY_LISTEN", "localhost:65536"), ("ISSUE_GATEWAY_LISTEN", "a b:80"),
        ("ISSUE_GATEWAY_TOKEN_TTL", "0"), ("ISSUE_GATEWAY_TOKEN_TTL", "3601"), ("ISSUE_GATEWAY_TOKEN_TTL", "5m"),
        ("ISSUE_GATEWAY_TOKEN_KEYS", "k1:c2hvcnQ"), ("ISSUE_GATEWAY_TOKEN_KEYS", "nokid"),
        ("ISSUE_GATEWAY_TOKEN_KEYS", "k1:!!!!"), ("ISSUE_GATEWAY_ADMIN_KEY", "short"),
        ("ISSUE_GATEWAY_CDN_BASE_URL", "ftp://cdn"), ("ISSUE_GATEWAY_CDN_BASE_URL", "cdn.example.com"),
        ("ISSUE_GATEWAY_CDN_BASE_URL", "https://cdn.example.com/content"),
        ("ISSUE_GATEWAY_EDGE_FORMAT", "bunny-ish"), ("ISSUE_GATEWAY_EDGE_DELIVERY", "header"),
        ("ISSUE_GATEWAY_EDGE_HASH", "MD5"), ("ISSUE_GATEWAY_EDGE_HASH", "sha256"), ("ISSUE_GATEWAY_EDGE_SECRETS", ""),
        ("ISSUE_GATEWAY_ACCEPT_SANDBOX", "maybe"), ("ISSUE_GATEWAY_TRANSFER_POLICY", "steal"),
        ("ISSUE_GATEWAY_GRACE_DAYS", "-1"), ("ISSUE_GATEWAY_THREADS", "0"), ("ISSUE_GATEWAY_APP_APPLE_ID", "abc"),
        ("ISSUE_GATEWAY_APPLE_ROOT_CERTS", "/no/such/root.cer"), ("ISSUE_GATEWAY_DATABASE", ""),
        ("ISSUE_GATEWAY_TOKEN_TTLS", "300"),
        ("ISSUE_GATEWAY_STORE_THREADS", "0"), ("ISSUE_GATEWAY_STORE_QUEUE", "-3"), ("ISSUE_GATEWAY_APPSTORE_THREADS", "many"),
        ("ISSUE_GATEWAY_APPSTORE_THREADS", "1025"), ("ISSUE_GATEWAY_APPSTORE_QUEUE", "0"),
    ])
    func aBadValueNamesItsVariable(name: String, value: String) {
        #expect {
            try Configuration.load(environment: [name: value])
        } throws: { error in
            (error as? ConfigurationError)?.setting == name
        }
    }

    @Test func duplicateKidsAreRefused() {
        let secret = Base64URL.encode(Array(repeating: 1, count: 32))
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["ISSUE_GATEWAY_TOKEN_KEYS": "a:\(secret),a:\(secret)"])
        }
    }

    @Test func configFileUnderTheEnvironment() throws {
        let file = """
            # shared settings
            ISSUE_GATEWAY_LISTEN=0.0.0.0:80
            ISSUE_GATEWAY_TOKEN_ISSUER = "publisher"

            ISSUE_GATEWAY_GRACE_DAYS=2
            """
        let c = try Configuration.load(environment: ["ISSUE_GATEWAY_GRACE_DAYS": "5"], configFile: ("gw.env", file))
        #expect(c.listen == ListenAddress(host: "0.0.0.0", port: 80))
        #expect(c.tokenIssuer == "publisher")
        #expect(c.graceDays == 5, "the environment wins")
        #expect(throws: ConfigurationError(setting: "ISSUE_GATEWAY_TOKEN_TTL", message: "\"0\" must be an integer from 1 to 3600",
                                           origin: "gw.env:2")) {
            try Configuration.load(environment: [:], configFile: ("gw.env", "\nISSUE_GATEWAY_TOKEN_TTL=0"))
        }
        #expect(throws: ConfigurationError.self) { try Configuration.load(environment: [:], configFile: ("gw.env", "LISTEN 80")) }
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: [:], configFile: ("gw.env", "ISSUE_GATEWAY_THREADS=1\nISSUE_GATEWAY_THREADS=2"))
        }
    }

    @Test func theCLIReadsTheConfigFile() throws {
        let cli = CLIHarness()
        let path = cli.temporaryFolder("gw.env")
        try FileManager.default.createDirectory(atPath: cli.database.folder.path, withIntermediateDirectories: true)
        try "ISSUE_GATEWAY_DATABASE=\(cli.database.path)\nISSUE_GATEWAY_CATALOG=none\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(CommandLineTool.run(["--config", path, "catalog", "list"], environment: [:], console: Console(out: { _ in }, err: { _ in })) == 0)
        #expect(FileManager.default.fileExists(atPath: cli.database.path))
        #expect(CommandLineTool.run(["catalog", "list", "--config=/no/such/file"], environment: [:], console: Console(out: { _ in }, err: { _ in })) == 1)
    }

    @Test func generatedSecretsAreStableAcrossStarts() throws {
        let db = TemporaryDatabase()
        var configuration = Configuration()
        configuration.databasePath = db.path
        let first = try GeneratedSecrets.resolve(configuration)
        #expect(first.newAdminKey != nil && first.configuration.adminKey == first.newAdminKey)
        #expect(first.configuration.tokenKeys?.keys.first?.secret.count == 32)
        let second = try GeneratedSecrets.resolve(configuration)
        #expect(second.newAdminKey == nil)
        #expect(second.configuration == first.configuration)
        configuration.adminKey = String(repeating: "x", count: 40)
        #expect(try GeneratedSecrets.resolve(configuration).configuration.adminKey == configuration.adminKey)
    }
}

/// A pool may call one service from all its threads at once: the kept session must never hold
/// calls back below that, or they would wait inside libcurl while their deadline runs.
@Suite struct OutboundConnectionLimitTests {
    @Test func theSessionAllowsAsManyConnectionsAsTheLargestPool() {
        #expect(URLSessionExchange.defaultMaximumConnectionsPerHost >= ConfigurationLimits.poolThreads.upperBound)
    }
}
