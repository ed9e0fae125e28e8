import CommandLineSupport
import Entitle
import Foundation
import GatewayConfiguration
import GatewayCore
import GatewayHTTP
import GatewayStore
import IssueCatalog
import Wire

/// `issue-gateway account explain ACCOUNT PUBLICATION/ISSUE`: the explanation route's answer
/// (E20) from the database, for support staff at a terminal; `account history ACCOUNT`: the
/// history route's answer.
enum AccountCommand {
    static let help = """
        usage: issue-gateway account explain ACCOUNT PUBLICATION/ISSUE
               issue-gateway account history ACCOUNT [--limit N] [--after CURSOR]

        explain prints why the account may or may not download the issue now: the sentence to paste
        to the reader, the reasons (E20), the active periods nearest the issue's publication and the
        transaction that entitles it or was refunded.
        history prints what GET /v1/accounts/ACCOUNT/history answers: every fact as it arrived,
        oldest first, at most N (default 500) after CURSOR (the previous page's "next").
        Both read the database only.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        let arguments = try Arguments.parse(words, options: ["limit", "after"])
        if arguments.wantsHelp { return context.console.out(help) }
        if arguments.positionals.first == "history" { return try history(arguments, context) }
        guard arguments.positionals.first == "explain" else { throw .usage("account: expected `explain` or `history`") }
        guard arguments.options.isEmpty else { throw .usage("account explain takes no options") }
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
            let explanations = try Explanations(store: store, policy: configuration.entitlementPolicy, clock: SystemClock())
            explanation = try explanations.explain(ref, for: accountId)
        } catch let error as CLIError {
            throw error
        } catch let error as GatewayError {
            throw .failure("the database could not be read: \(error.message)")
        } catch {
            throw .failure("the database could not be read: \(error)")
        }
        guard let explanation else { throw .failure("no issue \(ref.issueId) in \(ref.publicationId)") }
        context.console.out(render(explanation))
    }

    /// `account history ACCOUNT`: the route's body, from the database.
    private static func history(_ arguments: Arguments, _ context: CommandContext) throws(CLIError) {
        try arguments.expectPositionals(2, "ACCOUNT")
        let accountId = arguments.positionals[1]
        let query = [("limit", try arguments.optional("limit")), ("after", try arguments.optional("after"))]
            .compactMap { name, value in value.map { (name, $0) } }
        let store = try context.openStore(try context.configuration())
        let body: [UInt8]?
        do throws(HistoryJSON.Failure) { body = try HistoryJSON.body(ofAccount: accountId, query: query, history: AccountHistory(store: store)) } catch {
            switch error {
            case .badPage(let message): throw .usage("account history: \(message)")
            case .storage(let failure): throw .failure("the database could not be read: \(failure.message)")
            }
        }
        guard let body else { throw .failure("no account \(accountId)") }
        context.console.out(String(decoding: body, as: UTF8.self))
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
            grant:       \(e.grant.map { "\($0.grantId) (\($0.source)/\($0.externalId), from \($0.start.rfc3339))" } ?? "none")
            """
    }
}
