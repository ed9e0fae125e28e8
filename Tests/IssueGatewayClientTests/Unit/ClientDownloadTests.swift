import Foundation
import IssueGatewayClient
import Testing

/// The download helper (tokens.md: a reader app treats 401, 403 or 410 from the CDN as "get a new
/// token", once).
@Suite struct ClientDownloadTests {
    private static func access(_ token: String) -> String {
        #"{"token":"\#(token)","expiresAt":"2026-03-20T12:05:00.000Z","format":"jws","urls":["https://cdn.test/content/monthly/2026-03/issue.pdf?token=\#(token)","https://cdn.test/content/monthly/2026-03/cover.jpg?token=\#(token)"]}"#
    }

    private func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("client-download-\(UUID().uuidString)")
    }

    @Test(arguments: [401, 403, 410])
    func aRefusedLinkGetsOneNewTokenAndTheFileIsTriedAgain(status: Int) async throws {
        let transport = ScriptedTransport()
        let (client, _) = Fixture.client(transport)
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        transport.answer(200, Self.access("old"))
        transport.answer(200, "pdf-bytes")
        transport.answer(status)
        transport.answer(200, Self.access("new"))
        transport.answer(200, "jpg-bytes")
        let files = try await client.download(publication: "monthly", issue: "2026-03", into: directory)
        #expect(files.map(\.lastPathComponent) == ["issue.pdf", "cover.jpg"])
        #expect(try Data(contentsOf: files[0]) == Data("pdf-bytes".utf8))
        #expect(try Data(contentsOf: files[1]) == Data("jpg-bytes".utf8))
        #expect(files[0].path.hasSuffix("/content/monthly/2026-03/issue.pdf"))
        #expect(transport.requests.map(\.url.query) == [nil, "token=old", "token=old", nil, "token=new"])
        #expect(transport.requests.filter { $0.url.path.hasSuffix("/token") }.count == 2)
    }

    @Test func aSecondRefusalIsThrownWithTheCDNsStatus() async throws {
        let transport = ScriptedTransport()
        let (client, _) = Fixture.client(transport)
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        transport.answer(200, Self.access("old"))
        transport.answer(410)
        transport.answer(200, Self.access("new"))
        transport.answer(403)
        let error = await #expect(throws: IssueGatewayError.self) {
            try await client.download(publication: "monthly", issue: "2026-03", into: directory)
        }
        #expect(error?.code == .downloadRefused)
        #expect(error?.status == 403)
        #expect(transport.unused == 0)
        #expect(transport.requests.filter { $0.url.path.hasSuffix("/token") }.count == 2)
    }

    @Test func anotherCDNFailureIsNotARenewal() async throws {
        let transport = ScriptedTransport()
        let (client, _) = Fixture.client(transport)
        let directory = folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        transport.answer(200, Self.access("old"))
        transport.answer(404)
        let error = await #expect(throws: IssueGatewayError.self) {
            try await client.download(publication: "monthly", issue: "2026-03", into: directory)
        }
        #expect(error?.status == 404)
        #expect(transport.requests.count == 2)
    }
}
