import Testing
import TestSupport
import GatewayTesting

/// A real gateway's parser refuses a second X-Original-URI or X-Original-Method
/// (RFC 9110 §5.3: these fields have no list syntax): an edge that appends headers must not let
/// a reader pick which path is checked.
@Suite struct DuplicateEdgeHeaderTests {
    @Test(arguments: [("X-Original-URI: /content/a.pdf", "X-Original-URI: /content/b.pdf"),
                      ("X-Original-Method: GET", "X-Original-Method: POST"),
                      ("Authorization: Bearer a", "Authorization: Bearer b")])
    func aRepeatedEdgeHeaderIs400(first: String, second: String) throws {
        let flow = try AppStoreFlow()
        let client = try TestClient(port: flow.port)
        client.send(Array("GET /v1/edge/verify HTTP/1.1\r\nHost: gateway\r\n\(first)\r\n\(second)\r\nConnection: close\r\n\r\n".utf8))
        #expect(try client.readResponse().status == 400)
        let once = try TestClient(port: flow.port)
        once.send(Array("GET /v1/edge/verify HTTP/1.1\r\nHost: gateway\r\n\(first)\r\nConnection: close\r\n\r\n".utf8))
        #expect(try once.readResponse().status == 401, "one copy reaches the edge check (no token: 401)")
    }
}
