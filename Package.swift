// swift-tools-version:6.0
// issue-gateway: no Swift package dependencies by design; system C libraries only
// (SQLite, OpenSSL's libcrypto, libcurl through FoundationNetworking and, for APNs over HTTP/2, directly).
import PackageDescription

let package = Package(
    name: "issue-gateway",
    // The floor is the reader client's (iOS 15, macOS 12: StoreKit 2 and async URLSession); the
    // gateway's own targets run on Linux only (epoll), where no platform floor applies (decision 93).
    platforms: [.macOS(.v12), .iOS(.v15)],
    products: [
        .executable(name: "issue-gateway", targets: ["IssueGateway"]),
        .executable(name: "appstore-simulator", targets: ["AppStoreSimulatorTool"]),
        .executable(name: "stripe-simulator", targets: ["StripeSimulatorTool"]),
        .executable(name: "googleplay-simulator", targets: ["GooglePlaySimulatorTool"]),
        .library(name: "Wire", targets: ["Wire"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "IssueCatalog", targets: ["IssueCatalog"]),
        .library(name: "Entitle", targets: ["Entitle"]),
        .library(name: "GatewayCrypto", targets: ["GatewayCrypto"]),
        .library(name: "DownloadTokens", targets: ["DownloadTokens"]),
        .library(name: "EdgeFormats", targets: ["EdgeFormats"]),
        .library(name: "GatewayStore", targets: ["GatewayStore"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "OutboundHTTP", targets: ["OutboundHTTP"]),
        .library(name: "AppStoreKit", targets: ["AppStoreKit"]),
        .library(name: "AppStoreSimulator", targets: ["AppStoreSimulator"]),
        .library(name: "StripeKit", targets: ["StripeKit"]),
        .library(name: "GooglePlayKit", targets: ["GooglePlayKit"]),
        .library(name: "OpenIDConnect", targets: ["OpenIDConnect"]),
        .library(name: "GooglePlaySimulator", targets: ["GooglePlaySimulator"]),
        .executable(name: "issue-gateway-bench", targets: ["Benchmarks"]),
        // What reader apps add: the gateway's reader routes as a Swift client, Foundation only.
        .library(name: "IssueGatewayClient", targets: ["IssueGatewayClient"]),
    ],
    targets: [
        // System libraries, reached through module maps.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        // gzip content coding of JSON answers (RFC 9110 §8.4.1.3).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        // libcurl for the APNs provider: HTTP/2 over TLS with multiplexing and a trusted CA file of
        // our choosing, which FoundationNetworking's URLSession cannot be told (docs/decisions/29).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        // The PostgreSQL client library (several gateway processes on one database).
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),
        // Linux headers Glibc's module does not export (epoll, eventfd) and tiny wrappers for macros.
        .target(name: "CSystem"),

        // Wire-level utilities every layer shares: strict JSON, percent-decoding, base64url, hex,
        // RFC 3339 instants. Pure: no sockets, no database, no clock reads.
        .target(name: "Wire"),

        // Pure libraries: no sockets, no database, no clock reads.
        .target(name: "IssueCatalog", dependencies: ["Wire"]),
        // The store-neutral rules of entitlement-rules.md: facts in, entitlements out; knows no store's wire format.
        .target(name: "Entitle", dependencies: ["Wire", "IssueCatalog"]),

        // The libcrypto wrappers the gateway's own secrets need: SHA-256, HMAC, constant-time
        // comparison, random bytes, secret hashes.
        .target(name: "GatewayCrypto", dependencies: ["Wire", "CCrypto"]),
        // Download tokens (tokens.md): compact JWS signing and verification, key sets, and the
        // edge check every CDN implementation mirrors.
        .target(name: "DownloadTokens", dependencies: ["Wire", "IssueCatalog", "GatewayCrypto"]),
        // Download URLs and cookies a CDN checks by itself (tokens.md, CDN-native formats): nginx
        // secure_link, Akamai EdgeAuth 2.0, CloudFront signed URLs and cookies. Pure: no clock, no I/O.
        .target(name: "EdgeFormats", dependencies: ["Wire", "GatewayCrypto"]),

        // Storage as units of work: the store protocol, its records, the rules written once above
        // every backend (E1 merge, E4 ownership, facts versions) and the row access written once as
        // SQL values over a small connection protocol; then the SQLite backend (connection, pool, schema).
        .target(name: "GatewayStore", dependencies: ["Wire", "IssueCatalog", "Entitle", "GatewayCrypto", "Lifecycle"]),
        .target(name: "SQLiteStore", dependencies: ["GatewayStore", "Wire", "IssueCatalog", "Entitle", "Lifecycle", "CSQLite"]),
        // The PostgreSQL backend (connection over libpq, pool, schema, change feed, job lease): several
        // processes on one database.
        .target(name: "PostgresStore", dependencies: ["GatewayStore", "Wire", "IssueCatalog", "Entitle", "Lifecycle", "CLibPQ"]),

        // Threads and background services: the one thread type (named, joinable), a condition to
        // wait on beside `Mutex` and counted permits built on it, services that start once, stop
        // and join, a group that stops them in reverse order. Every target that runs or waits for
        // a thread uses these.
        .target(name: "Lifecycle", dependencies: ["CSystem"]),

        // A registry of counters, gauges and histograms in Prometheus's text format (`/metrics`).
        .target(name: "Metrics"),
        // The HTTP/1.1 server: epoll loops, RFC 9112 parser, frozen router, worker pools. Knows no
        // application: the router brings the error renderer.
        .target(name: "HTTPServer", dependencies: ["Wire", "Metrics", "CSystem", "Lifecycle"]),
        // Drives a frozen router without sockets, as the server would (tests).
        .target(name: "HTTPServerTesting", dependencies: ["HTTPServer", "Lifecycle"]),

        // What every client of an outside service (Apple, Google, Stripe, webhook receivers) shares:
        // the kept URLSession per service with a bounded body and an exact deadline, the exchange's
        // values, the transport protocol tests fake, retries and deadlines, Retry-After as services
        // send it, the outbound log. Knows no service.
        .target(name: "OutboundHTTP", dependencies: ["Wire", "Lifecycle"]),

        // App Store verification (X.509 chains, ES256, V2 signed data), the App Store's bodies into
        // store-neutral facts, and the verifyReceipt and Server API clients.
        .target(name: "AppStoreKit", dependencies: ["Wire", "IssueCatalog", "Entitle", "GatewayCrypto", "OutboundHTTP", "CCrypto"]),
        // The App Store simulator and its test CA: tests and developers only, never the product.
        .target(name: "AppStoreSimulator",
                dependencies: ["Wire", "IssueCatalog", "Entitle", "AppStoreKit", "OutboundHTTP", "HTTPServer", "Metrics",
                               "Lifecycle", "CCrypto"]),
        .executableTarget(name: "AppStoreSimulatorTool",
                          dependencies: ["AppStoreSimulator", "AppStoreKit", "OutboundHTTP", "HTTPServer", "CommandLineSupport"]),

        // Stripe (web sales): webhook signatures (HMAC-SHA256), both API shapes of its objects into
        // store-neutral facts (E23, E26), and the API client on its own pool.
        .target(name: "StripeKit", dependencies: ["Wire", "IssueCatalog", "Entitle", "GatewayCrypto", "OutboundHTTP"]),

        // Stripe played from scenario steps for tests and developers: never the product.
        .target(name: "StripeSimulator", dependencies: ["Wire", "IssueCatalog", "StripeKit", "HTTPServer", "Metrics"]),
        .executableTarget(name: "StripeSimulatorTool",
                          dependencies: ["StripeSimulator", "StripeKit", "HTTPServer", "Wire", "CommandLineSupport"]),

        // OpenID Connect ID tokens (readers.md E31): compact JWS with an allowed algorithm, a
        // provider's JWKS (RSA and EC P-256) kept by `Cache-Control`, the signature through
        // GatewayCrypto, then the claims of OpenID Connect Core §3.1.3.7; the providers file. No
        // store, no clock reads: `now` is passed in.
        .target(name: "OpenIDConnect", dependencies: ["Wire", "GatewayCrypto", "OutboundHTTP"]),

        // Google Play (googleplay.md): the service account's OAuth assertion (RS256), the Developer and
        // Orders API client, Google's bodies into store-neutral facts (E23, E25), real-time developer
        // notifications and the Pub/Sub push token's OIDC verification.
        .target(name: "GooglePlayKit", dependencies: ["Wire", "IssueCatalog", "Entitle", "GatewayCrypto", "OutboundHTTP", "OpenIDConnect"]),
        // The Google Play simulator: token endpoint, Developer and Orders API, JWKS and OIDC push
        // tokens it signs, scenario steps. Tests and developers only, never the product.
        .target(name: "GooglePlaySimulator",
                dependencies: ["Wire", "GooglePlayKit", "GatewayCrypto", "OutboundHTTP", "HTTPServer", "Metrics", "Lifecycle"]),
        .executableTarget(name: "GooglePlaySimulatorTool",
                          dependencies: ["GooglePlaySimulator", "GooglePlayKit", "HTTPServer", "CommandLineSupport", "Wire"]),

        // What both executables' command lines share: arguments, errors and exit statuses, the console.
        .target(name: "CommandLineSupport"),

        // The use cases, with no HTTP: App Store ingestion, ownership, grants, access codes,
        // explanations, the status poller, the notification backfill, caches and catalog state.
        .target(name: "GatewayCore",
                dependencies: ["Wire", "IssueCatalog", "Entitle", "GatewayCrypto", "DownloadTokens", "GatewayStore",
                               "AppStoreKit", "StripeKit", "GooglePlayKit", "OpenIDConnect", "OutboundHTTP", "Lifecycle", "Metrics"]),
        // Pushes to reader devices (APNs over libcurl) and webhooks: the only target that links curl.
        .target(name: "GatewayPush",
                dependencies: ["GatewayCore", "Wire", "IssueCatalog", "Entitle", "GatewayCrypto", "GatewayStore", "OutboundHTTP",
                               "Lifecycle", "CCurl"]),
        // The API of http-api.md on the HTTP server: one controller per area, request rendering,
        // OpenAPI, the web console and gzip.
        .target(name: "GatewayHTTP",
                dependencies: ["GatewayCore", "Wire", "IssueCatalog", "Entitle", "GatewayCrypto", "DownloadTokens", "EdgeFormats",
                               "GatewayStore", "AppStoreKit", "StripeKit", "GooglePlayKit", "OutboundHTTP", "HTTPServer", "Lifecycle", "Metrics",
                               "CZlib"],
                // The web console's files and the OpenAPI document, compiled in: no files to ship
                // beside the binary.
                resources: [.embedInCode("Console/Assets"), .embedInCode("OpenAPI/openapi.json")]),
        // Settings (environment and file) and the runtime that wires the core, push and HTTP
        // controllers onto the server: the only library that knows both SQL backends.
        .target(name: "GatewayConfiguration",
                dependencies: ["GatewayCore", "GatewayPush", "GatewayHTTP", "Wire", "IssueCatalog", "Entitle", "GatewayCrypto",
                               "DownloadTokens", "EdgeFormats", "GatewayStore", "SQLiteStore", "PostgresStore", "HTTPServer",
                               "AppStoreKit", "StripeKit", "GooglePlayKit", "OpenIDConnect", "OutboundHTTP", "Lifecycle", "Metrics"]),

        // The `issue-gateway` executable: the command line only.
        .executableTarget(name: "IssueGateway",
                          dependencies: ["GatewayConfiguration", "GatewayCore", "GatewayHTTP", "Wire", "IssueCatalog", "Entitle",
                                         "DownloadTokens", "GatewayCrypto", "GatewayStore", "SQLiteStore", "PostgresStore",
                                         "HTTPServer", "AppStoreKit", "Lifecycle", "CommandLineSupport"]),

        // The client reader apps add alone (iOS, macOS, Linux): accounts and sessions, purchases,
        // issue lists, downloads, pushes. Foundation only, no other target of this package.
        .target(name: "IssueGatewayClient"),

        // Benchmarks (release mode): `swift run -c release issue-gateway-bench <name>`.
        .executableTarget(name: "Benchmarks", dependencies: ["Wire", "IssueCatalog", "Entitle", "DownloadTokens", "GatewayCrypto",
                                                            "GatewayCore", "GatewayStore", "SQLiteStore", "PostgresStore", "GooglePlaySimulator",
                                                            "OpenIDConnect", "OutboundHTTP"]),

        // Helpers the test targets share (a seeded generator, the PyJWT runner, temporary databases,
        // the built executable, a socket client); tests only.
        .target(name: "TestSupport", dependencies: ["SQLiteStore", "PostgresStore", "Lifecycle", "CLibPQ", "CSystem"],
                path: "Tests/TestSupport"),

        .testTarget(name: "IssueCatalogTests", dependencies: ["Wire", "IssueCatalog"]),
        .testTarget(name: "EntitleTests", dependencies: ["Wire", "Entitle", "IssueCatalog", "TestSupport"]),
        .testTarget(name: "DownloadTokensTests",
                    dependencies: ["DownloadTokens", "GatewayCrypto", "Wire", "IssueCatalog", "TestSupport"]),
        .testTarget(name: "EdgeFormatsTests",
                    dependencies: ["EdgeFormats", "GatewayCrypto", "Wire"], exclude: ["Vectors"]),
        .testTarget(name: "GatewayStoreTests",
                    dependencies: ["GatewayStore", "SQLiteStore", "PostgresStore", "Wire", "Entitle", "IssueCatalog",
                                   "CSQLite", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Metrics", "HTTPServerTesting", "Lifecycle", "Wire",
                                                     "CSystem", "TestSupport"]),
        .testTarget(name: "AppStoreKitTests",
                    dependencies: ["AppStoreKit", "AppStoreSimulator", "AppStoreSimulatorTool", "CommandLineSupport", "OutboundHTTP",
                                   "Wire", "Entitle", "IssueCatalog", "TestSupport"]),
        .testTarget(name: "StripeKitTests", dependencies: ["StripeKit", "OutboundHTTP", "Wire", "Entitle", "IssueCatalog", "GatewayCrypto"]),
        .testTarget(name: "GooglePlayKitTests",
                    dependencies: ["GooglePlayKit", "GooglePlaySimulator", "OpenIDConnect", "OutboundHTTP", "GatewayCrypto", "Wire", "Entitle",
                                   "IssueCatalog", "TestSupport"]),
        .testTarget(name: "LifecycleTests", dependencies: ["Lifecycle"]),
        .testTarget(name: "OutboundHTTPTests", dependencies: ["OutboundHTTP", "Wire"]),
        // The gateway's scenario fixtures, one copy for every test target above the core: a whole
        // gateway in process or on a socket (`GatewayHarness`), the App Store, Stripe and Google Play
        // flows against their simulators, the test clock, fake APNs, real nginx, the Pub/Sub
        // emulator, two gateways on one PostgreSQL. Tests only.
        .target(name: "GatewayTesting",
                dependencies: ["GatewayCore", "GatewayPush", "GatewayHTTP", "GatewayConfiguration", "GatewayStore",
                               "SQLiteStore", "PostgresStore", "HTTPServer", "HTTPServerTesting",
                               "AppStoreKit", "AppStoreSimulator", "StripeKit", "StripeSimulator", "GooglePlayKit",
                               "GooglePlaySimulator", "OpenIDConnect", "Lifecycle", "Wire", "Entitle", "DownloadTokens", "GatewayCrypto",
                               "IssueCatalog", "TestSupport"],
                path: "Tests/GatewayTesting"),
        // By layer: the core's use cases and caches without HTTP; the configuration and runtime wiring;
        // every route through the in-process client (and the server's socket where the wire matters);
        // integration with what runs outside the test process (PostgreSQL across gateways, nginx,
        // the Pub/Sub emulator, the fake APNs): `swift test --skip IntegrationTests` leaves it out.
        .testTarget(name: "GatewayCoreTests",
                    dependencies: ["GatewayCore", "GatewayPush", "GatewayConfiguration", "GatewayStore", "SQLiteStore",
                                   "Lifecycle", "Wire", "Entitle", "IssueCatalog", "TestSupport"]),
        .testTarget(name: "GatewayConfigurationTests",
                    dependencies: ["GatewayConfiguration", "GatewayCore", "GatewayPush", "GatewayHTTP", "GatewayStore",
                                   "SQLiteStore", "PostgresStore", "HTTPServer", "AppStoreKit", "AppStoreSimulator",
                                   "DownloadTokens", "Entitle", "Wire", "TestSupport", "GatewayTesting"]),
        .testTarget(name: "GatewayHTTPTests",
                    dependencies: ["GatewayTesting", "GatewayCore", "GatewayPush", "GatewayHTTP", "GatewayConfiguration",
                                   "Metrics", "GatewayStore", "SQLiteStore", "PostgresStore", "HTTPServer", "HTTPServerTesting",
                                   "AppStoreKit", "AppStoreSimulator", "StripeKit", "StripeSimulator", "GooglePlayKit",
                                   "GooglePlaySimulator", "OpenIDConnect", "OutboundHTTP", "Lifecycle", "Wire", "Entitle", "DownloadTokens",
                                   "GatewayCrypto", "IssueCatalog", "CSystem", "CZlib", "TestSupport"]),
        .testTarget(name: "IntegrationTests",
                    dependencies: ["GatewayTesting", "IssueGateway", "GatewayCore", "GatewayPush", "GatewayHTTP", "GatewayConfiguration",
                                   "GatewayStore", "SQLiteStore", "PostgresStore", "HTTPServer", "AppStoreKit",
                                   "AppStoreSimulator", "GooglePlayKit", "GooglePlaySimulator", "CommandLineSupport", "Lifecycle", "Wire",
                                   "Entitle", "DownloadTokens", "GatewayCrypto", "IssueCatalog", "CSystem", "TestSupport"]),
        // The client against a scripted transport, and against a real gateway on a socket with the
        // App Store simulator signing transactions and real nginx as the CDN.
        .testTarget(name: "IssueGatewayClientTests",
                    dependencies: ["IssueGatewayClient", "GatewayTesting", "GatewayStore", "AppStoreSimulator", "TestSupport"]),
        .testTarget(name: "IssueGatewayTests",
                    dependencies: ["IssueGateway", "GatewayConfiguration", "GatewayCore", "GatewayHTTP", "GatewayStore",
                                   "SQLiteStore", "PostgresStore", "HTTPServer", "CommandLineSupport", "Lifecycle", "Wire",
                                   "Entitle", "DownloadTokens", "GatewayCrypto", "IssueCatalog", "TestSupport",
                                   "AppStoreSimulator", "AppStoreKit", "OutboundHTTP"]),
    ],
    swiftLanguageModes: [.v6]
)
