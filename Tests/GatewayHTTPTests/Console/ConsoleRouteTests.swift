import Foundation
@testable import GatewayConfiguration
import Testing
import GatewayTesting

/// `GET /console/` and its files: compiled in, each with its content type, the strict
/// policy on every answer, revalidation by entity tag, and nothing else reachable under `/console/`.
@Suite struct ConsoleRouteTests {
    static let policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
        + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    static let types = [
        "index.html": "text/html; charset=utf-8", "console.css": "text/css; charset=utf-8",
        "icon.svg": "image/svg+xml", "main.js": "text/javascript; charset=utf-8",
        "api.js": "text/javascript; charset=utf-8", "dom.js": "text/javascript; charset=utf-8",
        "editors.js": "text/javascript; charset=utf-8", "products.js": "text/javascript; charset=utf-8",
        "support.js": "text/javascript; charset=utf-8", "signin.js": "text/javascript; charset=utf-8", "webhooks.js": "text/javascript; charset=utf-8",
        "readers.js": "text/javascript; charset=utf-8", "reports.js": "text/javascript; charset=utf-8",
    ]

    private func expectConsoleHeaders(_ response: APIResponse, _ what: String) {
        #expect(response.header("Content-Security-Policy") == Self.policy, "\(what)")
        #expect(response.header("X-Content-Type-Options") == "nosniff", "\(what)")
        #expect(response.header("Referrer-Policy") == "no-referrer", "\(what)")
    }

    @Test func everyFileIsServedWithItsTypeThePolicyAndAnEntityTag() throws {
        let h = try H()
        #expect(Set(ConsoleAssets.all.keys) == Set(Self.types.keys))
        for (name, type) in Self.types {
            let response = try h.client.get("/console/\(name)")
            #expect(response.status == 200, "\(name)")
            #expect(response.header("Content-Type") == type, "\(name)")
            expectConsoleHeaders(response, name)
            #expect(response.header("Cache-Control") == "no-cache")
            let served = response.body == ConsoleAssets.all[name]?.bytes
            #expect(served, "\(name) is served as compiled")
            let tag = try #require(response.header("ETag"), "\(name)")
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""), "a strong tag")
            let again = try h.client.get("/console/\(name)", headers: [("If-None-Match", tag)])
            #expect(again.status == 304, "\(name)")
            #expect(again.body.isEmpty && again.header("ETag") == tag)
            expectConsoleHeaders(again, "304 of \(name)")
            #expect(try h.client.get("/console/\(name)", headers: [("If-None-Match", "\"other\"")]).status == 200)
        }
        let tags = Set(ConsoleAssets.all.values.map(\.tag.field))
        #expect(tags.count == ConsoleAssets.all.count, "each file its own tag")
    }

    @Test func theConsolesAddressServesThePage() throws {
        let h = try H()
        let page = try h.client.get("/console/")
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.text.contains("<title>issue-gateway console</title>"))
        expectConsoleHeaders(page, "/console/")
        let head = try h.client.send("HEAD", "/console/main.js")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(try h.client.send("POST", "/console/main.js").status == 405)
    }

    /// Names are looked up in a fixed table, never joined to a path: dot segments, encoded dots
    /// and slashes and unknown names are all 404s, and nothing outside the table is ever served.
    @Test func unknownNamesAndTraversalAre404() throws {
        let h = try H()
        let byName = ["/console/nope.js", "/console/..", "/console/%2e%2e", "/console/.%2E", "/console/%2e%2e%2fopenapi.json",
                      "/console/..%2fPackage.swift", "/console/%2E%2E%2F%2E%2E%2FPackage.swift", "/console/.",
                      "/console/Index.html", "/console/main.js%00", "/console/main.js%20", "/console/console.js"]
        for path in byName {
            let response = try h.client.get(path)
            #expect(response.status == 404, "\(path)")
            #expect(response.errorCode == "not_found", "\(path)")
            expectConsoleHeaders(response, path)
        }
        for path in ["/console/../", "/console/../openapi.json", "/console/%2e%2e/openapi.json", "/console/main.js/",
                     "/console/a/b", "/console/./index.html", "/console"] {
            let response = try h.client.get(path)
            #expect(response.status == 404, "\(path)")
            #expect(!response.text.contains("<html"), "\(path)")
        }
    }

    @Test func traversalOverASocketIsA404Too() throws {
        let h = try H(transport: .socket)
        defer { h.stop() }
        for path in ["/console/../openapi.json", "/console/%2e%2e/openapi.json", "/console/%2e%2e%2fopenapi.json"] {
            let response = try h.client.get(path)
            #expect(response.status == 404, "\(path)")
            #expect(response.errorCode == "not_found", "\(path): the error, not the document")
        }
        #expect(try h.client.get("/console/").status == 200)
    }

    /// The policy forbids inline script and style; this keeps the page from needing them, and the
    /// scripts from turning text into markup or keeping the key anywhere but in memory.
    @Test func thePageHasNoInlineScriptStyleOrHandlers() throws {
        let html = try #require(ConsoleAssets.all["index.html"]).text
        let scripts = html.ranges(of: #/<script\b([^>]*)>([\s\S]*?)</script>/#.ignoresCase())
        #expect(!scripts.isEmpty)
        for range in scripts {
            let match = try #require(html[range].wholeMatch(of: #/<script\b([^>]*)>([\s\S]*?)</script>/#.ignoresCase()))
            #expect(match.output.1.contains("src="), "every script is a file")
            #expect(match.output.2.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "no inline script body")
        }
        #expect(html.firstMatch(of: #/\son[a-z]+\s*=/#.ignoresCase()) == nil, "no on*= handler attributes")
        #expect(html.firstMatch(of: #/\sstyle\s*=/#.ignoresCase()) == nil, "no style attributes")
        #expect(html.firstMatch(of: #/<style\b/#.ignoresCase()) == nil, "no style elements")
        #expect(html.firstMatch(of: #/javascript:/#.ignoresCase()) == nil)
        for (name, asset) in ConsoleAssets.all where name.hasSuffix(".js") {
            let code = asset.text
            for banned in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                           "localStorage", "sessionStorage", "document.cookie", "indexedDB"] {
                #expect(!code.contains(banned), "\(name) uses \(banned)")
            }
        }
    }

    /// `/openapi.json` names every console file (and only those), so the API fuzz pass reaches each.
    @Test func theDocumentNamesEveryFile() throws {
        let h = try H()
        let paths = try #require(try h.client.get("/openapi.json").json["paths"] as? [String: Any])
        let get = try #require((paths["/console/{asset}"] as? [String: Any])?["get"] as? [String: Any])
        let asset = try #require((get["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "asset" })
        let names = (asset["schema"] as? [String: Any])?["enum"] as? [String]
        #expect(Set(names ?? []) == Set(ConsoleAssets.all.keys))
    }

    /// The table of compiled-in files and the `Assets` folder hold the same files.
    @Test func theTableMatchesTheAssetsFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources/GatewayHTTP/Console/Assets").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(Set(files) == Set(ConsoleAssets.all.keys))
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
            let same = ConsoleAssets.all[file]?.bytes == bytes
            #expect(same, "\(file) as compiled is the file in the repository (rebuild after editing it)")
        }
    }
}

extension ConsoleAsset {
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
