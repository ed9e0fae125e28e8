import Foundation
import Testing
@testable import AppStoreKit

/// The strict reading of Server API answers: a field of the wrong type is a malformed answer
/// naming the field; absent and null fields are simply missing.
@Suite struct ServerAPIAnswerTests {
    func answer(_ json: String) throws -> ServerAPIAnswer {
        try ServerAPIAnswer(Data(json.utf8), name: "history", limit: 1 << 16)
    }

    @Test func fieldsOfTheirTypeAreRead() throws {
        let read = try answer(#"{"revision":"r1","hasMore":true,"signedTransactions":["a","b"],"effectiveDate":1700000000000.9}"#)
        #expect(try read.string("revision") == "r1")
        #expect(try read.bool("hasMore") == true)
        #expect(try read.strings("signedTransactions") == ["a", "b"])
        // Apple's millisecond dates are integers; a fraction is read toward zero.
        #expect(try read.integer("effectiveDate") == 1_700_000_000_000)
    }

    @Test func absentAndNullFieldsAreMissing() throws {
        let read = try answer(#"{"revision":null}"#)
        #expect(try read.string("revision") == nil)
        #expect(try read.strings("signedTransactions") == [])
        #expect(try read.objects("data").isEmpty)
    }

    @Test func aFieldOfAnotherTypeIsAMalformedAnswerNamingIt() throws {
        let read = try answer(#"{"revision":7,"signedTransactions":["a",1],"data":[{"x":1},"y"]}"#)
        #expect(throws: ServerAPIFailure.malformedResponse("history: bad field revision")) { try read.string("revision") }
        #expect(throws: ServerAPIFailure.malformedResponse("history: bad field signedTransactions")) {
            try read.strings("signedTransactions")
        }
        #expect(throws: ServerAPIFailure.malformedResponse("history: bad field data")) { try read.objects("data") }
    }

    @Test func nestedObjectsNameTheirPath() throws {
        let read = try answer(#"{"data":[{"lastTransactions":[{"status":"one"}]}]}"#)
        let group = try #require(try read.objects("data").first)
        let last = try #require(try group.objects("lastTransactions").first)
        #expect(throws: ServerAPIFailure.malformedResponse("history.data.lastTransactions: bad field status")) {
            try last.integer("status")
        }
    }
}
