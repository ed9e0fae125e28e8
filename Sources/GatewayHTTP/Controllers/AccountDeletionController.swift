import GatewayCore
import GatewayStore
import HTTPServer
import Wire

/// readers.md E35: `DELETE /v1/accounts/{accountId}` and `GET /v1/accounts/{accountId}/export`,
/// for the account's own secret, a service key or admin.
package struct AccountDeletionController: APIController {
    private let access: Access
    private let deletions: AccountDeletions

    package init(access: Access, deletions: AccountDeletions) { self.access = access; self.deletions = deletions }

    package func register(_ router: APIRouterBuilder) {
        router.add("DELETE", "/v1/accounts/{accountId}", execution: .store, route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context)
            let billing = try deletions.delete(account.id)
            return .json(200) { w in
                w.object { w in
                    w.field("deleted", true)
                    w.key("stillBilling")
                    w.array { w in
                        for item in billing {
                            w.object { w in
                                w.field("store", item.store.rawValue)
                                w.field("productId", item.productId)
                                w.field("expiresAt", item.expiresAt?.rfc3339)
                                w.field("manageUrl", item.manageURL)
                            }
                        }
                    }
                }
            }
        })
        router.add("GET", "/v1/accounts/{accountId}/export", execution: .store, route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context)
            let records = try deletions.export(account.id)
            var response = HTTPResponse.json(200) { w in w.accountExport(records, view: account.principal.isReader ? .reader : .staff) }
            response.headers.append(("Content-Disposition", "attachment; filename=\"account-\(account.id).json\""))
            return response
        })
    }
}
