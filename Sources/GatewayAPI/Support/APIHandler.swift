import GatewayStore
import HTTPServer

/// A route body that may throw an `APIError`; the wrapper answers the error in the spec's shape.
typealias APIRoute = @Sendable (HTTPRequest) throws(APIError) -> HTTPResponse

func apiHandler(_ route: @escaping APIRoute) -> HTTPHandler {
    { request in
        do throws(APIError) { return try route(request) } catch { return error.response }
    }
}

extension HTTPRequest {
    /// A path parameter the router matched; the pattern guarantees it is present.
    func parameter(_ name: String) -> String { pathParameters[name] ?? "" }

    func flag(_ name: String) -> Bool { queryParameter(name) == "true" }
}

/// Runs a store call, turning its failure into the API's answer.
func stored<T>(_ body: () throws(StoreError) -> T) throws(APIError) -> T {
    do { return try body() } catch { throw APIError(error) }
}
