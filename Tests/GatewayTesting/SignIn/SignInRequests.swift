import GatewayCore
import Wire

/// A signed-in device as a test holds it: the account, the session and its token.
package struct SignedIn {
    package var accountId: String
    package var sessionId: String
    package var token: String
}

/// `POST /v1/sessions` as an app sends it (readers.md): with an ID token the scripted verifier
/// knows (`tok-{provider}-{subject}`) and a fresh nonce, or with a link code; the device's bearer
/// when it has one.
extension GatewayHarness {
    package func signInBody(_ verifier: ScriptedIdentityVerifier, provider: String = "apple", subject: String,
                            email: String? = nil, device: String, replace: String? = nil, nonce: String? = nil) -> String {
        let token = "tok-\(provider)-\(subject)"
        verifier.script(token, VerifiedIdentity(provider: provider, subject: subject, email: email, emailVerified: email != nil))
        let replacing = replace.map { #","replaceSessionId":"\#($0)""# } ?? ""
        return #"{"provider":"\#(provider)","idToken":"\#(token)","nonce":"\#(nonce ?? verifier.issueNonce())","device":{"id":"\#(device)","name":"Reader's \#(device)","platform":"ios"}\#(replacing)}"#
    }

    package func signIn(_ verifier: ScriptedIdentityVerifier, provider: String = "apple", subject: String, email: String? = nil,
                        device: String, bearer: String? = nil, replace: String? = nil) throws -> APIResponse {
        try client.post("/v1/sessions", as: bearer, json: signInBody(verifier, provider: provider, subject: subject, email: email,
                                                                      device: device, replace: replace))
    }

    package func linkSignIn(code: String, device: String, bearer: String? = nil, replace: String? = nil,
                            sourceAddress: String? = nil) throws -> APIResponse {
        let replacing = replace.map { #","replaceSessionId":"\#($0)""# } ?? ""
        let body = #"{"linkCode":"\#(code)","device":{"id":"\#(device)","name":"\#(device)","platform":"web"}\#(replacing)}"#
        return try client.send("POST", "/v1/sessions", as: bearer, body: Array(body.utf8), sourceAddress: sourceAddress)
    }

    /// A new link code of the account, through the API.
    package func linkCode(for accountId: String, as secret: String) throws -> String {
        let response = try client.post("/v1/accounts/\(accountId)/link-codes", as: secret)
        guard response.status == 201, let code = response.json["code"] as? String else {
            throw HarnessError.unexpected("link code: \(response.status) \(response.text)")
        }
        return code
    }
}

extension APIResponse {
    /// A 201 of `POST /v1/sessions` as the device keeps it.
    package func signedIn() throws -> SignedIn {
        guard status == 201, let account = json["accountId"] as? String, let session = json["sessionId"] as? String,
              let token = json["sessionToken"] as? String else {
            throw HarnessError.unexpected("sign-in answered \(status): \(text)")
        }
        return SignedIn(accountId: account, sessionId: session, token: token)
    }
}
