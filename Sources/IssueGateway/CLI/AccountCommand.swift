import GatewayAPI
import CommandLineSupport
import Entitle
import Foundation
import GatewayStore
import IssueCatalog
import Wire

/// `issue-gateway account explain ACCOUNT PUBLICATION/ISSUE`: the explanation route's answer
/// (E20) from the database, for support staff at a terminal.
enum AccountCommand {
    static let help = """
        usage: issue-gateway account explain ACCOUNT PUBLICATION/ISSUE

        Prints why the account may or may not download the issue now: the sentence to paste to the
        reader, the reasons (E20), the active periods nearest the issue's publication and the
        transaction that entitles it or was refunded. Reads the database only.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        let arguments = try Arguments.parse(words, options: [])
        if arguments.wantsHelp { return context.console.out(help) }
        guard arguments.positionals.first == "explain" else { throw .usage("account: expected `explain`") }
        guard arguments.positionals.count == 3 else { throw .usage("account explain: expected ACCOUNT PUBLICATION/ISSUE") }
        let accountId = arguments.positionals[1]
        let parts = arguments.positionals[2].split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .usage("account explain: the issue is PUBLICATION/ISSUE") }
        let ref = IssueRef(publicationId: String(parts[0]), issueId: String(parts[1]))
        let configuration = try context.configuration()
        let store = try context.openStore(configuration)
        let explanation: IssueExplanation?
        do {
            guard try store.account(id: accountId) != nil else { throw CLIError.failure("no account \(accountId)") }
            let facts = try store.accountFacts(accountId)
            let catalog = CatalogSnapshot(try store.loadCatalog())
            let entitlements = EntitlementEngine.evaluate(catalog: catalog, transactions: facts.transactions,
                                                          renewals: facts.renewals, policy: configuration.entitlementPolicy,
                                                          now: SystemClock().now())
            explanation = IssueExplainer.explain(ref, entitlements: entitlements, transactions: facts.transactions,
                                                 catalog: catalog)
        } catch let error as CLIError {
            throw error
        } catch {
            throw .failure("the database could not be read: \(error)")
        }
        guard let explanation else { throw .failure("no issue \(ref.issueId) in \(ref.publicationId)") }
        context.console.out(render(explanation))
    }

    static func render(_ e: IssueExplanation) -> String {
        func period(_ p: ActivePeriod?) -> String {
            p.map { "\($0.start.rfc3339) – \($0.end == .distantFuture ? "open" : $0.end.rfc3339)" } ?? "none"
        }
        func transaction(_ t: TransactionEvidence?) -> String {
            t.map { "\($0.transactionId) (\($0.productId), \($0.environment.rawValue), bought \($0.purchaseDate.rfc3339)"
                + ($0.revocationDate.map { ", refunded \($0.rfc3339)" } ?? "") + ")" } ?? "none"
        }
        return """
            \(e.summary)
            issue:       \(e.issue.publicationId)/\(e.issue.id) "\(e.issue.title)", published \(e.issue.publishedAt.rfc3339)
            entitled:    \(e.entitled ? "yes" : "no") (\(e.reasons.map(\.rawValue).joined(separator: ", ")))
            period:      \(period(e.periodContaining))
            before:      \(period(e.periodBefore))
            after:       \(period(e.periodAfter))
            transaction: \(transaction(e.transaction))
            refunded:    \(transaction(e.refunded))
            """
    }
}
