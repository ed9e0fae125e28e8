import Foundation
@testable import GatewayConfiguration
import GatewayStore
import Synchronization
import Testing
import Wire
import GatewayTesting

/// Sign in with Apple's server notifications (readers.md), as actions on a parsed event: a
/// revoked consent removes the identity and ends its sessions; an account deletion does the same
/// and deletes (E35) an account left without identity or session; the email is dropped or kept.
@Suite struct AppleIdentityEventTests {
    let verifier = ScriptedIdentityVerifier()
    let h: GatewayHarness
    let deleted = DeletedAccounts()

    init() throws { h = try GatewayHarness(identityVerifier: verifier) }

    private func events() -> AppleIdentityEvents {
        let core = h.runtime.core
        return AppleIdentityEvents(store: core.store, clock: h.clock, authenticator: core.authenticator,
                                   policy: core.readers.sessionPolicy,
                                   deleteAccount: { [deleted] id throws(GatewayError) in deleted.ids.withLock { $0.append(id) } })
    }

    private func identities(_ accountId: String) throws -> [Identity] {
        try h.runtime.core.readers.identities.identities(of: accountId)
    }

    @Test func consentRevokedRemovesTheIdentityAndEndsItsSessionsAndTheAccountStays() throws {
        let apple = try h.signIn(verifier, subject: "001.a", email: "a@privaterelay.appleid.com", device: "phone").signedIn()
        let code = try h.linkCode(for: apple.accountId, as: apple.token)
        let web = try h.linkSignIn(code: code, device: "web").signedIn()
        let outcome = try events().take(AppleServerEvent.consentRevoked(subject: "001.a"))
        #expect(outcome == .identityRemoved(accountId: apple.accountId, endedSessions: [apple.sessionId]))
        #expect(try h.client.get("/v1/accounts/\(apple.accountId)/entitlements", as: apple.token).status == 401)
        #expect(try h.client.get("/v1/accounts/\(apple.accountId)/entitlements", as: web.token).status == 200,
                "a link code's session was not made with the identity")
        #expect(try identities(apple.accountId).isEmpty)
        #expect(try events().take(AppleServerEvent.consentRevoked(subject: "001.a")) == .unknownSubject,
                "the same notification twice changes nothing more")
        #expect(deleted.ids.withLock { $0 }.isEmpty)
    }

    @Test func accountDeleteDeletesAnAccountLeftWithoutIdentityOrSessionOnly() throws {
        let kept = try h.signIn(verifier, subject: "001.k", device: "phone").signedIn()
        let code = try h.linkCode(for: kept.accountId, as: kept.token)
        _ = try h.linkSignIn(code: code, device: "web").signedIn()
        let left = try events().take(AppleServerEvent.accountDeleted(subject: "001.k"))
        #expect(left == .identityRemoved(accountId: kept.accountId, endedSessions: [kept.sessionId]))
        let gone = try h.signIn(verifier, subject: "001.d", device: "phone").signedIn()
        let deletedOutcome = try events().take(AppleServerEvent.accountDeleted(subject: "001.d"))
        #expect(deletedOutcome == .accountDeleted(accountId: gone.accountId, endedSessions: [gone.sessionId]))
        #expect(deleted.ids.withLock { $0 } == [gone.accountId])
        #expect(try events().take(AppleServerEvent.accountDeleted(subject: "001.unknown")) == .unknownSubject)
    }

    @Test func emailDisabledDropsTheEmailAndEmailEnabledKeepsTheEventsEmail() throws {
        let reader = try h.signIn(verifier, subject: "001.e", email: "e@privaterelay.appleid.com", device: "phone").signedIn()
        #expect(try events().take(AppleServerEvent.emailDisabled(subject: "001.e")) == .emailChanged(accountId: reader.accountId))
        #expect(try identities(reader.accountId).first?.email == nil)
        let enabled = AppleServerEvent.emailEnabled(subject: "001.e", email: "e2@privaterelay.appleid.com")
        #expect(try events().take(enabled) == .emailChanged(accountId: reader.accountId))
        #expect(try identities(reader.accountId).first?.email == "e2@privaterelay.appleid.com")
        #expect(try h.client.get("/v1/accounts/\(reader.accountId)/entitlements", as: reader.token).status == 200)
    }

    @Test func anEventTypeTheGatewayDoesNotActOnChangesNothing() throws {
        let reader = try h.signIn(verifier, subject: "001.o", email: "o@example.com", device: "phone").signedIn()
        #expect(try events().take(AppleServerEvent.other(type: "email-changed", subject: "001.o")) == .ignored(type: "email-changed"))
        #expect(try identities(reader.accountId).map(\.email) == ["o@example.com"])
        #expect(try h.client.get("/v1/accounts/\(reader.accountId)/entitlements", as: reader.token).status == 200)
    }
}

/// The accounts E35's deletion was asked to delete.
final class DeletedAccounts: Sendable {
    let ids = Mutex<[String]>([])
}
