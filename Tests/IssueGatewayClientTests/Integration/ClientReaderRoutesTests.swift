import Foundation
import GatewayTesting
import IssueGatewayClient
import Testing
import TestSupport

/// The client on readers.md's routes (E31–E35) against a real gateway on a socket: link codes,
/// the session list, sign-out, deletion with what still bills, export, and sign-in's nonce.
@Suite(.tags(.integration, .sockets)) struct ClientReaderRoutesTests {
    private static let phone = DeviceInfo(id: "0f6a4f38-3c1e-4a52-9d1b-6f0e1d2c3b4a", name: "Anna's phone", platform: "ios")
    private static let tablet = DeviceInfo(id: "7d2e9b10-5a4c-4f3e-8b2a-1c0d9e8f7a6b", name: "Anna's iPad", platform: "ios")

    @Test func E33aLinkCodePutsASecondDeviceOnTheAccountAndE34ListsBoth() async throws {
        let world = try ClientWorld()
        let phone = world.client()
        let first = try await phone.continueAnonymously()
        let code = try await phone.createLinkCode()
        #expect(code.code.count == 8)

        let tablet = world.client()
        let spaced = String(code.code.prefix(4)) + " " + String(code.code.suffix(4)).lowercased()
        let joined = try await tablet.redeemLinkCode(spaced, device: Self.tablet)
        #expect(joined.session.accountId == first.accountId)
        #expect(joined.created == false)

        let sessions = try await tablet.sessions()
        #expect(sessions.count == 2)
        #expect(sessions.first { $0.current }?.device.name == "Anna's iPad")
        #expect(sessions.contains { $0.device.name == nil }, "the first session, from POST /v1/accounts")

        let again = await #expect(throws: IssueGatewayError.self) {
            try await world.client().redeemLinkCode(code.code, device: Self.phone)
        }
        #expect(again?.code == .linkCodeNotFound)
    }

    @Test func E34signOutEndsTheSessionOnTheGateway() async throws {
        let world = try ClientWorld()
        let phone = world.client()
        try await phone.continueAnonymously()
        let tablet = world.client()
        let joined = try await tablet.redeemLinkCode(try await phone.createLinkCode().code, device: Self.tablet)
        try await tablet.signOut()
        #expect(try await tablet.currentSession() == nil)
        #expect(try await phone.sessions().map(\.sessionId).contains(joined.session.sessionId!) == false)

        let ended = try await world.client().redeemLinkCode(try await phone.createLinkCode().code, device: Self.tablet)
        try await phone.endSession(ended.session.sessionId!)
        #expect(try await phone.sessions().count == 1)
    }

    @Test func E35deletionNamesWhatStillBillsAndForgetsTheSession() async throws {
        let world = try ClientWorld()
        let client = world.client()
        let session = try await client.continueAnonymously()
        _ = try await client.postSignedTransactions(try world.signedTransactions())
        let export = try JSONSerialization.jsonObject(with: try await client.exportAccount()) as? [String: Any]
        for key in ["account", "identities", "sessions", "devices", "transactions", "renewalInfo", "grants", "printClaims",
                    "institutions", "history", "downloads"] {
            #expect(export?[key] != nil, "export key \(key)")
        }
        let deletion = try await client.deleteAccount()
        #expect(deletion.stillBilling.map(\.productId) == ["monthly.1m"])
        #expect(deletion.stillBilling.first?.manageURL == URL(string: "https://apps.apple.com/account/subscriptions"))
        #expect(try await client.currentSession() == nil)
        let stale = IssueGatewayClient(baseURL: world.baseURL, sessionStore: InMemorySessionStore(session), transport: world.transport)
        let gone = await #expect(throws: IssueGatewayError.self) { try await stale.entitlements() }
        #expect(gone?.code == .unauthorized)
    }

    @Test func E31withoutIdentityProvidersSignInIsNotConfiguredAndNoTokenIsAskedFor() async throws {
        let world = try ClientWorld()
        let client = world.client()
        let error = await #expect(throws: IssueGatewayError.self) {
            try await client.signIn(with: .apple, device: Self.phone) { _ in
                Issue.record("no nonce was issued, so no ID token may be asked for")
                return "unused"
            }
        }
        #expect(error?.code == .notConfigured)
        #expect(error?.status == 409)
    }
}
