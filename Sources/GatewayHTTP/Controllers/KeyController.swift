import Entitle
import GatewayCore
import GatewayCrypto
import GatewayStore
import HTTPServer
import Wire

/// `POST /v1/keys`, `DELETE /v1/keys/{keyId}` (http-api.md, Catalog): editor and service keys,
/// shown once and stored only as hashes.
package struct KeyController: APIController {
    private let access: Access
    private let keys: APIKeys

    package init(access: Access, keys: APIKeys) { self.access = access; self.keys = keys }

    package func register(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/keys", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let body = try RequestBody(context.request)
            let roleText = try body.string("role")
            let publications = try body.optionalStrings("publications") ?? []
            let (key, secret) = try keys.create(role: APIKey.Role(rawValue: roleText), publications: publications)
            return .json(201) { w in
                w.object { w in
                    w.field("keyId", key.keyId)
                    w.field("role", key.role.rawValue)
                    w.key("publications")
                    w.array { w in for p in key.publications { w.string(p) } }
                    w.field("key", secret)
                }
            }
        })
        router.add("DELETE", "/v1/keys/{keyId}", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let keyId = context.parameter("keyId")
            try keys.delete(keyId)
            return .json(200) { w in
                w.object { w in
                    w.field("keyId", keyId)
                    w.field("deleted", true)
                }
            }
        })
    }
}
