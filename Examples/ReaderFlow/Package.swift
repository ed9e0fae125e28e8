// swift-tools-version:6.0
// A reader app's flow on the command line: the issue-gateway package added by path, its
// `IssueGatewayClient` library alone, as an app adds it.
import PackageDescription

let package = Package(
    name: "ReaderFlow",
    platforms: [.macOS(.v12), .iOS(.v15)],
    dependencies: [.package(name: "issue-gateway", path: "../..")],
    targets: [
        .executableTarget(name: "ReaderFlow",
                          dependencies: [.product(name: "IssueGatewayClient", package: "issue-gateway")]),
    ],
    swiftLanguageModes: [.v6]
)
