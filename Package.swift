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
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "IssueCatalog", targets: ["IssueCatalog"]),
        .library(name: "Entitle", targets: ["Entitle"]),
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

        // The HTTP/1.1 server: epoll loops, RFC 9112 parser, frozen router, worker pools. Knows no
        // application: the router brings the error renderer.
        .target(name: "HTTPServer", dependencies: ["Wire", "CSystem"]),
        // Drives a frozen router without sockets, as the server would (tests).
        .target(name: "HTTPServerTesting", dependencies: ["HTTPServer"]),

        .executableTarget(name: "IssueGateway",
                          dependencies: ["Wire", "IssueCatalog", "Entitle", "HTTPServer", "CSQLite", "CCrypto", "CSystem"]),

        // Benchmarks (release mode): `swift run -c release issue-gateway-bench <name>`.
        .executableTarget(name: "Benchmarks", dependencies: ["Wire", "IssueCatalog", "Entitle"]),

        // Helpers the test targets share (a seeded generator, the PyJWT runner, a socket client); tests only.
        .target(name: "TestSupport", dependencies: ["CSystem"], path: "Tests/TestSupport"),

        .testTarget(name: "IssueCatalogTests", dependencies: ["Wire", "IssueCatalog"]),
        .testTarget(name: "EntitleTests", dependencies: ["Wire", "Entitle", "IssueCatalog", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "HTTPServerTesting", "Wire", "CSystem", "TestSupport"]),
        .testTarget(name: "IssueGatewayTests",
                    dependencies: ["IssueGateway", "HTTPServer", "HTTPServerTesting", "Wire", "Entitle", "IssueCatalog",
                                   "CSystem", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
