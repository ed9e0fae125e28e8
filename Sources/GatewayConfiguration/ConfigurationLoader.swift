import Foundation
import GatewayCore
import EdgeFormats
import GatewayCrypto

extension Configuration {
    /// One row per variable of http-api.md's Configuration table: its name and how it sets the
    /// configuration. New settings are added here, and only here.
    private typealias Apply = @Sendable (inout Configuration, String) throws(SettingParsers.Invalid) -> Void

    private static let settings: [(name: String, apply: Apply)] = [
        ("ISSUE_GATEWAY_LISTEN", set(\.listen, SettingParsers.listen)),
        ("ISSUE_GATEWAY_DATABASE", set(\.databasePath, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_CATALOG", { c, v throws(SettingParsers.Invalid) in
            c.catalogFolder = v == "none" ? nil : try SettingParsers.nonEmpty(v)
        }),
        ("ISSUE_GATEWAY_ADMIN_KEY", { c, v throws(SettingParsers.Invalid) in
            guard v.utf8.count >= ConfigurationLimits.minimumAdminKeyLength else {
                throw SettingParsers.Invalid(message: "must be at least \(ConfigurationLimits.minimumAdminKeyLength) characters")
            }
            c.adminKey = try SettingParsers.nonEmpty(v)
        }),
        ("ISSUE_GATEWAY_TOKEN_KEYS", set(\.tokenKeys, SettingParsers.tokenKeys)),
        ("ISSUE_GATEWAY_VERIFICATION_KEY", set(\.verificationKey) { v throws(SettingParsers.Invalid) in
            try SettingParsers.secret(v, minimumBytes: ConfigurationLimits.verificationKeyBytes)
        }),
        ("ISSUE_GATEWAY_TRUSTED_PROXIES", set(\.trustedProxies) { v throws(SettingParsers.Invalid) in
            var ranges: [NetworkRange] = []
            for entry in v.split(separator: ",").map({ String($0.filter { $0 != " " }) }) where !entry.isEmpty {
                do throws(NetworkRange.Invalid) { ranges.append(try NetworkRange(parsing: entry)) } catch {
                    throw SettingParsers.Invalid(message: "\(entry): \(error.reason)")
                }
            }
            return ranges
        }),
        ("ISSUE_GATEWAY_IDENTITY_PROVIDERS", set(\.identityProviders, SettingParsers.identityProviders)),
        ("ISSUE_GATEWAY_SUBSCRIBER_LIST_MAX", set(\.subscriberListMaxBytes) { v throws(SettingParsers.Invalid) in
            try SettingParsers.byteSize(v, in: ConfigurationLimits.subscriberListBytes)
        }),
        ("ISSUE_GATEWAY_TOKEN_TTL", integer(\.tokenTTLSeconds, in: ConfigurationLimits.tokenTTLSeconds)),
        ("ISSUE_GATEWAY_TOKEN_ISSUER", set(\.tokenIssuer, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_CDN_BASE_URL", set(\.cdnBaseURL, SettingParsers.origin)),
        ("ISSUE_GATEWAY_EDGE_FORMAT", set(\.edge.format, SettingParsers.choice)),
        ("ISSUE_GATEWAY_EDGE_DELIVERY", set(\.edge.delivery, SettingParsers.choice)),
        ("ISSUE_GATEWAY_EDGE_SECRETS", set(\.edge.secrets, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_EDGE_KEY_ID", set(\.edge.keyId, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_EDGE_PRIVATE_KEY", set(\.edge.privateKeyPath, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_EDGE_HASH", set(\.edge.hash) { v throws(SettingParsers.Invalid) in
            guard v == "SHA256" || v == "SHA1", let digest = MessageDigest(rawValue: v) else {
                throw SettingParsers.Invalid(message: "\(SettingParsers.quoted(v)) must be SHA256 or SHA1")
            }
            return digest
        }),
        ("ISSUE_GATEWAY_EDGE_COOKIE_DOMAIN", set(\.edge.cookieDomain, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_APPSTORE_PRODUCTION_URL", set(\.appStoreProductionURL, SettingParsers.httpURL)),
        ("ISSUE_GATEWAY_APPSTORE_SANDBOX_URL", set(\.appStoreSandboxURL, SettingParsers.httpURL)),
        ("ISSUE_GATEWAY_APPSTORE_SHARED_SECRET", set(\.appStoreSharedSecret, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_APPLE_ROOT_CERTS", set(\.appleRootCertificatePaths, SettingParsers.certificatePaths)),
        ("ISSUE_GATEWAY_BUNDLE_ID", set(\.bundleId, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_APP_APPLE_ID", set(\.appAppleId, SettingParsers.appleId)),
        ("ISSUE_GATEWAY_ACCEPT_SANDBOX", set(\.acceptSandbox, SettingParsers.bool)),
        ("ISSUE_GATEWAY_TRANSFER_POLICY", set(\.transferPolicy, SettingParsers.policy)),
        ("ISSUE_GATEWAY_GRACE_DAYS", integer(\.graceDays, in: ConfigurationLimits.graceDays)),
        ("ISSUE_GATEWAY_THREADS", integer(\.threads, in: ConfigurationLimits.threads)),
        ("ISSUE_GATEWAY_MALLOC_ARENAS", integer(\.mallocArenas, in: ConfigurationLimits.mallocArenas)),
        ("ISSUE_GATEWAY_STORE_THREADS", integer(\.storeThreads, in: ConfigurationLimits.poolThreads)),
        ("ISSUE_GATEWAY_STORE_QUEUE", integer(\.storeQueue, in: ConfigurationLimits.poolQueue)),
        ("ISSUE_GATEWAY_STORE_READ_THREADS", set(\.storeReadThreads) { v throws(SettingParsers.Invalid) in
            try SettingParsers.integer(v, in: ConfigurationLimits.poolThreads)
        }),
        ("ISSUE_GATEWAY_STORE_READ_QUEUE", integer(\.storeReadQueue, in: ConfigurationLimits.poolQueue)),
        ("ISSUE_GATEWAY_APPSTORE_THREADS", integer(\.appStoreThreads, in: ConfigurationLimits.poolThreads)),
        ("ISSUE_GATEWAY_APPSTORE_QUEUE", integer(\.appStoreQueue, in: ConfigurationLimits.poolQueue)),
        ("ISSUE_GATEWAY_CACHE_MEMORY", set(\.cacheMemoryBytes) { v throws(SettingParsers.Invalid) in
            try SettingParsers.byteSize(v, in: ConfigurationLimits.cacheMemoryBytes)
        }),
        ("ISSUE_GATEWAY_HTTP_BUFFER_MEMORY", set(\.httpBufferBytes) { v throws(SettingParsers.Invalid) in
            try SettingParsers.byteSize(v, in: ConfigurationLimits.httpBufferBytes)
        }),
        ("ISSUE_GATEWAY_SPOOL_DIRECTORY", set(\.spoolDirectory, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_SPOOL_MAX", set(\.spoolMaxBytes) { v throws(SettingParsers.Invalid) in
            try SettingParsers.byteSize(v, in: ConfigurationLimits.spoolBytes)
        }),
        ("ISSUE_GATEWAY_HTTP_CLIENT_REQUESTS", integer(\.httpClientRequests, in: ConfigurationLimits.clientRequests)),
        ("ISSUE_GATEWAY_HTTP_CLIENT_POOL_SHARE", integer(\.httpClientPoolSharePercent, in: ConfigurationLimits.clientPoolSharePercent)),
        ("ISSUE_GATEWAY_HTTP_CLIENT_BUFFER_SHARE", integer(\.httpClientBufferSharePercent, in: ConfigurationLimits.clientPoolSharePercent)),
        ("ISSUE_GATEWAY_ACCOUNT_CREATION_RATE", integer(\.accountCreationPerMinute, in: ConfigurationLimits.accountCreationRate)),
        ("ISSUE_GATEWAY_ACCOUNT_CREATION_BURST", integer(\.accountCreationBurst, in: ConfigurationLimits.accountCreationBurst)),
        ("ISSUE_GATEWAY_REDEEM_FAILURES_RATE", integer(\.redemptionFailuresPerMinute, in: ConfigurationLimits.accountCreationRate)),
        ("ISSUE_GATEWAY_REDEEM_FAILURES_BURST", integer(\.redemptionFailuresBurst, in: ConfigurationLimits.accountCreationBurst)),
        ("ISSUE_GATEWAY_DEVICE_LIMIT", integer(\.deviceLimit, in: ConfigurationLimits.deviceLimit)),
        ("ISSUE_GATEWAY_SESSION_IDLE_DAYS", integer(\.sessionIdleDays, in: ConfigurationLimits.sessionIdleDays)),
        ("ISSUE_GATEWAY_APPSTORE_API_KEY_ID", set(\.appStoreAPIKeyId, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_APPSTORE_API_ISSUER_ID", set(\.appStoreAPIIssuerId, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_APPSTORE_API_PRIVATE_KEY", set(\.appStoreAPIPrivateKeyPath, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_APPSTORE_API_PRODUCTION_URL", set(\.appStoreAPIProductionURL, SettingParsers.httpURL)),
        ("ISSUE_GATEWAY_APPSTORE_API_SANDBOX_URL", set(\.appStoreAPISandboxURL, SettingParsers.httpURL)),
        ("ISSUE_GATEWAY_APNS_KEY_ID", set(\.push.apnsKeyId, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_APNS_TEAM_ID", set(\.push.apnsTeamId, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_APNS_PRIVATE_KEY", set(\.push.apnsPrivateKeyPath, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_APNS_TOPIC", set(\.push.apnsTopic, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_APNS_URL", set(\.push.apnsURL, SettingParsers.httpURL)),
        ("ISSUE_GATEWAY_APNS_SANDBOX_URL", set(\.push.apnsSandboxURL, SettingParsers.httpURL)),
        ("ISSUE_GATEWAY_APNS_CA_FILE", set(\.push.apnsCAFile, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_WEBHOOK_URL", set(\.push.webhookURL, SettingParsers.httpURL)),
        ("ISSUE_GATEWAY_WEBHOOK_SECRET", set(\.push.webhookSecret) { v throws(SettingParsers.Invalid) in
            try SettingParsers.secret(v, minimumBytes: ConfigurationLimits.webhookSecretBytes)
        }),
        ("ISSUE_GATEWAY_WEBHOOK_DEAD_LETTER_AFTER", integer(\.push.webhookDeadLetterAfterSeconds,
                                                            in: ConfigurationLimits.webhookDeadLetterAfterSeconds)),
        ("ISSUE_GATEWAY_WEBHOOK_CONCURRENCY", integer(\.push.webhookConcurrency, in: ConfigurationLimits.webhookConcurrency)),
        ("ISSUE_GATEWAY_GOOGLE_PACKAGES", set(\.googlePlay.packages, SettingParsers.packageNames)),
        ("ISSUE_GATEWAY_GOOGLE_SERVICE_ACCOUNT", set(\.googlePlay.serviceAccountPath, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_GOOGLE_API_URL", set(\.googlePlay.apiURL, SettingParsers.httpURL)),
        ("ISSUE_GATEWAY_GOOGLE_PUSH_AUDIENCE", set(\.googlePlay.pushAudience, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_GOOGLE_PUSH_EMAIL", set(\.googlePlay.pushEmail, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_GOOGLE_CERTS_URL", set(\.googlePlay.certsURL, SettingParsers.httpURL)),
        ("ISSUE_GATEWAY_GOOGLE_PULL_SUBSCRIPTION", set(\.googlePlay.pullSubscription, SettingParsers.pubSubSubscription)),
        ("ISSUE_GATEWAY_GOOGLE_PUBSUB_URL", set(\.googlePlay.pubSubURL, SettingParsers.httpURL)),
        ("ISSUE_GATEWAY_GOOGLE_THREADS", integer(\.googlePlay.threads, in: ConfigurationLimits.poolThreads)),
        ("ISSUE_GATEWAY_GOOGLE_QUEUE", integer(\.googlePlay.queue, in: ConfigurationLimits.poolQueue)),
        ("ISSUE_GATEWAY_DATABASE_URL", set(\.databaseURL, SettingParsers.postgresURL)),
        ("ISSUE_GATEWAY_WRITE_GROUP_UNITS", integer(\.writeGroupUnits, in: ConfigurationLimits.writeGroupUnits)),
        ("ISSUE_GATEWAY_WRITE_GROUP_MILLISECONDS", integer(\.writeGroupMilliseconds,
                                                           in: ConfigurationLimits.writeGroupMilliseconds)),
        ("ISSUE_GATEWAY_WRITE_GROUPS", integer(\.writeGroups, in: ConfigurationLimits.writeGroups)),
        ("ISSUE_GATEWAY_DATABASE_POOL", integer(\.databasePoolSize, in: ConfigurationLimits.databasePool)),
        ("ISSUE_GATEWAY_SQLITE_READERS", integer(\.sqliteReaders, in: ConfigurationLimits.sqliteReaders)),
        ("ISSUE_GATEWAY_DATABASE_STATEMENT_TIMEOUT", integer(\.databaseStatementTimeoutMilliseconds,
                                                             in: ConfigurationLimits.databaseStatementTimeoutMilliseconds)),
        ("ISSUE_GATEWAY_STRIPE_API_KEY", set(\.stripe.apiKey, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_STRIPE_WEBHOOK_SECRETS", set(\.stripe.webhookSecrets, StripeConfiguration.secrets)),
        ("ISSUE_GATEWAY_STRIPE_API_URL", set(\.stripe.apiURL, SettingParsers.httpURL)),
        ("ISSUE_GATEWAY_STRIPE_API_VERSION", set(\.stripe.apiVersion, SettingParsers.nonEmpty)),
        ("ISSUE_GATEWAY_STRIPE_ACCOUNT_KEY", set(\.stripe.accountKey, SettingParsers.nonEmpty)),
    ]

    public static let prefix = "ISSUE_GATEWAY_"
    /// A row that sets `field` to what `parse` reads from the value.
    private static func set<Value>(_ field: WritableKeyPath<Configuration, Value> & Sendable,
                                   _ parse: @escaping @Sendable (String) throws(SettingParsers.Invalid) -> Value) -> Apply {
        { c, v throws(SettingParsers.Invalid) in c[keyPath: field] = try parse(v) }
    }

    /// A row that sets an integer within its limits.
    private static func integer(_ field: WritableKeyPath<Configuration, Int> & Sendable, in range: ClosedRange<Int>) -> Apply {
        { c, v throws(SettingParsers.Invalid) in c[keyPath: field] = try SettingParsers.integer(v, in: range) }
    }

    public static var variableNames: [String] { settings.map(\.name) }

    /// The configuration from a `--config` file's text (if any) overlaid by the environment: a
    /// variable set in the environment wins over the same name in the file, so one run can
    /// override a shared file. Unknown `ISSUE_GATEWAY_` names are refused in both (a typo would
    /// otherwise silently leave a default in place).
    public static func load(environment: [String: String], configFile: (path: String, text: String)? = nil)
        throws(ConfigurationError) -> Configuration {
        var values: [String: (value: String, origin: String)] = [:]
        if let configFile {
            for (name, entry) in try ConfigFileParser.parse(configFile.text, path: configFile.path) { values[name] = entry }
        }
        for (name, value) in environment where name.hasPrefix(prefix) {
            values[name] = (value, "environment")
        }
        let known = Set(variableNames)
        if let unknown = values.keys.sorted().first(where: { !known.contains($0) }) {
            throw ConfigurationError(setting: unknown, message: "is not a known setting", origin: values[unknown]?.origin)
        }
        var configuration = Configuration()
        for setting in settings {
            guard let entry = values[setting.name] else { continue }
            do {
                try setting.apply(&configuration, entry.value.trimmingCharacters(in: .whitespaces))
            } catch {
                throw ConfigurationError(setting: setting.name, message: error.message, origin: entry.origin)
            }
        }
        // Google's convention for its client libraries: the emulator's host:port, no credentials.
        if let emulator = environment["PUBSUB_EMULATOR_HOST"], !emulator.isEmpty, values["ISSUE_GATEWAY_GOOGLE_PUBSUB_URL"] == nil {
            configuration.googlePlay.pubSubURL = "http://" + emulator
            configuration.googlePlay.pubSubEmulator = true
        }
        try configuration.push.check()
        try configuration.googlePlay.check()
        if configuration.spoolMaxBytes < configuration.subscriberListMaxBytes {
            // A list of the largest size taken could never be spooled: every such upload a 413.
            throw ConfigurationError(setting: "ISSUE_GATEWAY_SPOOL_MAX",
                                     message: "\(configuration.spoolMaxBytes) bytes is less than ISSUE_GATEWAY_SUBSCRIBER_LIST_MAX "
                                         + "(\(configuration.subscriberListMaxBytes) bytes): the largest list could never be taken",
                                     origin: values["ISSUE_GATEWAY_SPOOL_MAX"]?.origin)
        }
        return configuration
    }
}

/// `--config FILE`: `NAME=value` lines with the environment's names; blank lines and lines
/// starting with `#` are skipped; a value may be wrapped in double quotes.
package enum ConfigFileParser {
    package static func parse(_ text: String, path: String) throws(ConfigurationError) -> [String: (value: String, origin: String)] {
        guard text.utf8.count <= ConfigurationLimits.maxConfigFileBytes else {
            throw ConfigurationError(setting: path, message: "is larger than \(ConfigurationLimits.maxConfigFileBytes) bytes")
        }
        var values: [String: (value: String, origin: String)] = [:]
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            let origin = "\(path):\(index + 1)"
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigurationError(setting: path, message: "line \(index + 1) is not NAME=value")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard values[name] == nil else {
                throw ConfigurationError(setting: name, message: "is set twice", origin: origin)
            }
            values[name] = (value, origin)
        }
        return values
    }
}
