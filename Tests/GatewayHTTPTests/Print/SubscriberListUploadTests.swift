import Foundation
@testable import GatewayConfiguration
import TestSupport
import Testing
import GatewayTesting

/// A subscriber list is streamed to disk (http-api.md, Print subscribers): over a real socket, a
/// request whose key may not send it is refused from its head, before a byte of its body is kept.
@Suite struct SubscriberListUploadTests {
    @Test func aListTheKeyMayNotSendIsRefusedBeforeItsBodyIsKept() throws {
        let h = try H(transport: .socket)
        try h.seedCatalog()
        let weeklyEditor = try h.createKey(#"{"role":"editor","publications":["weekly"]}"#)
        let refusals: [(String?, Int, String)] = [(nil, 401, "unauthorized"), ("not-a-known-secret-0123456789", 401, "unauthorized"),
                                                  (weeklyEditor.secret, 403, "forbidden")]
        for (secret, status, code) in refusals {
            let client = try TestClient(port: h.port)
            let authorization = secret.map { "Authorization: Bearer \($0)\r\n" } ?? ""
            // 64 MiB announced and none sent: only an answer from the head can come back in time.
            client.send("PUT /v1/publications/monthly/subscribers HTTP/1.1\r\nHost: x\r\n\(authorization)"
                + "Content-Type: text/csv\r\nContent-Length: \(64 << 20)\r\n\r\n")
            let answer = try client.readResponse()
            #expect(answer.status == status, "\(secret ?? "no secret")")
            #expect(answer.text.contains("\"code\":\"\(code)\""), "\(answer.text)")
            #expect(h.runtime.server.spooledBytes == 0)
        }
        let monthlyEditor = try h.createKey(#"{"role":"editor","publications":["monthly"]}"#)
        let list = "customerNumber,verification,start,end\nC-1,12345,2025-12-01T00:00:00Z,\n"
        let client = try TestClient(port: h.port)
        client.send("PUT /v1/publications/monthly/subscribers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(monthlyEditor.secret)\r\n"
            + "Content-Type: text/csv\r\nContent-Length: \(list.utf8.count)\r\n\r\n")
        client.send(list)
        let taken = try client.readResponse()
        #expect(taken.status == 200 && taken.text.contains("\"added\":1"), "\(taken.text)")
    }
}
