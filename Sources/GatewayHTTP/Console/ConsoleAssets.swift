import GatewayCore
import HTTPServer
import Wire

/// One file of the web console: its bytes as compiled into the binary, its content
/// type and a strong entity tag of its bytes (RFC 9110 §8.8.3), so a browser revalidates with a
/// 304 instead of downloading it again.
package struct ConsoleAsset: Sendable {
    package let name: String
    package let contentType: String
    package let bytes: [UInt8]
    package let tag: EntityTag

    package init(_ name: String, _ bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
        contentType = Self.contentType(of: name)
        var hash = FNV1a()
        hash.combine(bytes: bytes)
        tag = EntityTag(hash)
    }

    /// By extension; only the kinds the console is made of. Module scripts are refused by
    /// browsers under any type but a JavaScript one (and `nosniff` holds them to it).
    package static func contentType(of name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        return "application/octet-stream"
    }
}

/// The console's files: plain HTML, CSS and JavaScript kept as real files in `Console/Assets/`
/// and compiled in by SwiftPM (`resources: [.embedInCode("Console/Assets")]`, which generates
/// `PackageResources`): no build step, nothing read from disk at run time, and nothing but these
/// names can ever be served, so no path can reach another file.
package enum ConsoleAssets {
    /// The page `/console/` answers.
    package static let index = "index.html"

    /// Every file by the name it is served under (`/console/<name>`). A test checks that this
    /// table and the `Assets` folder hold the same files.
    package static let all: [String: ConsoleAsset] = {
        let files: [ConsoleAsset] = [
            ConsoleAsset("index.html", PackageResources.index_html),
            ConsoleAsset("console.css", PackageResources.console_css),
            ConsoleAsset("icon.svg", PackageResources.icon_svg),
            ConsoleAsset("main.js", PackageResources.main_js),
            ConsoleAsset("api.js", PackageResources.api_js),
            ConsoleAsset("dom.js", PackageResources.dom_js),
            ConsoleAsset("editors.js", PackageResources.editors_js),
            ConsoleAsset("products.js", PackageResources.products_js),
            ConsoleAsset("readers.js", PackageResources.readers_js),
            ConsoleAsset("reports.js", PackageResources.reports_js),
            ConsoleAsset("signin.js", PackageResources.signin_js),
            ConsoleAsset("support.js", PackageResources.support_js),
            ConsoleAsset("webhooks.js", PackageResources.webhooks_js),
        ]
        return Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0) })
    }()
}
