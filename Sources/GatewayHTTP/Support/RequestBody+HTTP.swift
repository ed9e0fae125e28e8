import GatewayCore
import HTTPServer
import Wire

extension RequestBody {
    /// `optional`: an empty body stands for `{}` (e.g. `POST /v1/accounts`).
    package init(_ request: HTTPRequest, optional: Bool = false) throws(APIError) {
        if request.body.isEmpty {
            guard optional else { throw .badRequest("the request needs a JSON body") }
            self.init(object: JSONObject())
            return
        }
        let value: JSONValue
        // The route's body limit already bounds the size (receipts allow more than the parser's
        // default); only the depth limit is the parser's to keep.
        let limits = JSONLimits(maxBytes: request.body.count, maxDepth: JSONLimits.standard.maxDepth)
        do { value = try JSONParser(limits: limits).parse(bytes: request.body) } catch {
            throw .badRequest("the body is not valid JSON: \(error)")
        }
        guard let object = value.objectValue else { throw .badRequest("the body must be a JSON object") }
        self.init(object: object)
    }
}
