import GatewayCore
import HTTPServer

/// E30: a request's requester as the core reads it: the client address (the connection's, or
/// the rightmost `X-Forwarded-For` address a trusted proxy vouches for) and whether what the
/// request is given is recorded in the account's history.
package struct Requesters: Sendable {
    private let addresses: ClientAddressResolver

    package init(addresses: ClientAddressResolver) { self.addresses = addresses }

    package func requester(_ request: HTTPRequest, records: Bool) -> Requester {
        Requester(address: address(request), records: records)
    }

    /// An account route's requester: an admin's request records nothing (an operator's address
    /// says nothing of where the reader reads).
    package func requester(_ request: HTTPRequest, actingFor account: ActingAccount) -> Requester {
        requester(request, records: !account.principal.isAdmin)
    }

    package func address(_ request: HTTPRequest) -> [UInt8]? {
        addresses.address(peer: request.sourceAddress, forwardedFor: request.headers.values("X-Forwarded-For"))
    }
}
