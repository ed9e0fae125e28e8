// swift-tools-version:6.0
// issue-gateway: no Swift package dependencies by design; system C libraries only
// (SQLite, OpenSSL's libcrypto, libcurl through FoundationNetworking).
import PackageDescription

let package = Package(
    name: "issue-gateway",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "issue-gateway", targets: ["IssueGateway"]),
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

        // Pure libraries: no sockets, no database, no clock reads.
        .target(name: "IssueCatalog"),
        .target(name: "Entitle", dependencies: ["IssueCatalog", "CCrypto"]),

        .executableTarget(name: "IssueGateway",
                          dependencies: ["IssueCatalog", "Entitle", "CSQLite", "CCrypto", "CSystem"]),

        // Benchmarks (release mode): `swift run -c release issue-gateway-bench <name>`.
        .executableTarget(name: "Benchmarks", dependencies: ["IssueCatalog", "Entitle"]),

        // Helpers the test targets share (a seeded generator, the PyJWT runner); tests only.
        .target(name: "TestSupport", path: "Tests/TestSupport"),

        .testTarget(name: "IssueCatalogTests", dependencies: ["IssueCatalog"]),
        .testTarget(name: "EntitleTests", dependencies: ["Entitle", "IssueCatalog", "TestSupport"]),
        .testTarget(name: "IssueGatewayTests",
                    dependencies: ["IssueGateway", "Entitle", "IssueCatalog", "CSystem", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
