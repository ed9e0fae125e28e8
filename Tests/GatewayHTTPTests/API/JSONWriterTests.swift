import Foundation
@testable import GatewayConfiguration
import HTTPServer
import Testing
import Wire

@Suite struct JSONWriterTests {
    @Test func escapesPerRFC8259() throws {
        var w = JSONWriter()
        let tricky = "quote\" back\\ nl\n cr\r tab\t bell\u{07} nul\u{00} é ✓"
        w.object { w in
            w.field("s", tricky)
            w.field("n", 42)
            w.field("b", true)
            w.field("missing", nil as String?)
            w.key("list")
            w.array { w in w.int(1); w.double(1.5); w.double(.nan); w.string("x") }
        }
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(text.contains(#"bell\u0007 nul\u0000"#))
        #expect(text.contains(#"quote\" back\\ nl\n cr\r tab\t"#))
        let decoded = try #require(JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
        #expect(decoded["s"] as? String == tricky)
        #expect(decoded["n"] as? Int == 42)
        #expect(decoded["b"] as? Bool == true)
        #expect(decoded["missing"] is NSNull)
        let list = try #require(decoded["list"] as? [Any])
        #expect(list.count == 4)
        #expect(list[2] is NSNull)
    }

    @Test func errorResponseHasTheSpecShape() throws {
        let response = HTTPResponse.error(422, code: "receipt_rejected", message: "No.",
                                          extra: [("appStoreStatus", .int(21003))])
        #expect(response.status == 422)
        #expect(response.header("content-type") == "application/json")
        let decoded = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let error = try #require(decoded["error"] as? [String: Any])
        #expect(error["code"] as? String == "receipt_rejected")
        #expect(error["message"] as? String == "No.")
        #expect(error["appStoreStatus"] as? Int == 21003)
    }
}
