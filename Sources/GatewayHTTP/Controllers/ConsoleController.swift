import GatewayCore
import HTTPServer

/// The editors' and support staff's web console (http-api.md, Support: `GET /console/`; issue
/// #13): static files compiled into the binary (`ConsoleAssets`). The page asks for a key and
/// keeps it in the tab's memory only; it talks to the same API as every other client.
package struct ConsoleController: APIController {
    package init() {}

    /// On every console answer, errors and 304s included. The policy allows only the console's
    /// own files: no inline script or style, no other origin, no plugins, no framing, no form
    /// posts; `blob:` images for the timeline picture, which is fetched with the key (the key
    /// never goes in a URL, so an `<img src>` could not carry it).
    package static let consoleHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        // Revalidate every time (a 304 when unchanged), so a new gateway's console is never mixed
        // with an old one's cached scripts.
        ("Cache-Control", "no-cache"),
    ]

    package func register(_ router: APIRouterBuilder) {
        router.add("GET", "/console/") { request in
            Self.consoleAnswer(ConsoleAssets.all[ConsoleAssets.index], request)
        }
        router.add("GET", "/console/{asset}") { request in
            Self.consoleAnswer(ConsoleAssets.all[request.parameter("asset")], request)
        }
    }

    /// The file, a 304 when the client holds it (RFC 9110 §13.1.2), or a 404 for any name that is
    /// not one of the console's files (`..`, encoded dots and slashes included: names are looked up,
    /// never joined to a path).
    private static func consoleAnswer(_ asset: ConsoleAsset?, _ request: HTTPRequest) -> HTTPResponse {
        guard let asset else {
            var missing = GatewayError.notFound("no such console file").response
            missing.headers += consoleHeaders
            return missing
        }
        let tag = ("ETag", asset.tag.field)
        if EntityTag.noneMatch(request, current: [asset.tag]) != nil {
            return HTTPResponse(status: 304, headers: [tag] + consoleHeaders)
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", asset.contentType), tag] + consoleHeaders,
                            body: asset.bytes)
    }
}
