// swift-tools-version:6.0
// issue-gateway: no Swift package dependencies by design; system C libraries only
// (SQLite, OpenSSL's libcrypto, libcurl through FoundationNetworking).
import PackageDescription

let package = Package(
    name: "issue-gateway",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "issue-gateway", targets: ["IssueGateway"]),
        .library(name: "Wire", targets: ["Wire"]),
        .library(name: "IssueCatalog", targets: ["IssueCatalog"]),
        .library(name: "Entitle", targets: ["Entitle"]),
        .library(name: "AppStoreKit", targets: ["AppStoreKit"]),
        .library(name: "AppStoreSimulator", targets: ["AppStoreSimulator"]),
        .executable(name: "issue-gateway-bench", targets: ["Benchmarks"]),
    ],
    targets: [
        // System libraries, reached through module maps.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        // Linux headers Glibc's module does not export (epoll, eventfd) and tiny wrappers for macros.
        .target(name: "CSystem"),

        // Wire-level utilities every layer shares: strict JSON, percent-decoding, base64url, hex,
        // RFC 3339 instants. Pure: no sockets, no database, no clock reads.
        .target(name: "Wire"),

        // Pure libraries: no sockets, no database, no clock reads.
        .target(name: "IssueCatalog", dependencies: ["Wire"]),
        .target(name: "Entitle", dependencies: ["Wire", "IssueCatalog", "CCrypto"]),

        // Background services: start once, stop, join; a group stops them in reverse order.
        .target(name: "Lifecycle"),

        // App Store verification (X.509 chains, ES256, V2 signed data) and the verifyReceipt client.
        .target(name: "AppStoreKit", dependencies: ["Wire", "IssueCatalog", "Entitle", "CCrypto"]),
        // The App Store simulator and its test CA: tests and developers only, never the product.
        .target(name: "AppStoreSimulator", dependencies: ["Wire", "IssueCatalog", "Entitle", "AppStoreKit", "CCrypto"]),

        // AppStoreSimulator only for `issue-gateway appstore-simulator`, until the HTTP server is a
        // library the `appstore-simulator` executable can link.
        .executableTarget(name: "IssueGateway",
                          dependencies: ["Wire", "IssueCatalog", "Entitle", "AppStoreKit", "AppStoreSimulator", "Lifecycle",
                                         "CSQLite", "CCrypto", "CSystem"]),

        // Benchmarks (release mode): `swift run -c release issue-gateway-bench <name>`.
        .executableTarget(name: "Benchmarks", dependencies: ["Wire", "IssueCatalog", "Entitle"]),

        // Helpers the test targets share (a seeded generator, the PyJWT runner); tests only.
        .target(name: "TestSupport", path: "Tests/TestSupport"),

        .testTarget(name: "IssueCatalogTests", dependencies: ["Wire", "IssueCatalog"]),
        .testTarget(name: "EntitleTests", dependencies: ["Wire", "Entitle", "IssueCatalog", "TestSupport"]),
        .testTarget(name: "AppStoreKitTests",
                    dependencies: ["AppStoreKit", "AppStoreSimulator", "Wire", "Entitle", "IssueCatalog"]),
        .testTarget(name: "LifecycleTests", dependencies: ["Lifecycle"]),
        .testTarget(name: "IssueGatewayTests",
                    dependencies: ["IssueGateway", "AppStoreKit", "AppStoreSimulator", "Lifecycle", "Wire", "Entitle",
                                   "IssueCatalog", "CSystem", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
