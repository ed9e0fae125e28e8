import CommandLineSupport
import Foundation
import GatewayConfiguration
import GatewayCore
import GatewayStore
import IssueCatalog
import Wire

/// `catalog list`: a terminal view of the stored catalog, states computed for the current time.
enum CatalogListing {
    static let help = """
        usage: issue-gateway catalog list [--publication ID]

        Without --publication: the publications (with issue counts) and the products.
        With it: every issue of that publication, newest first, with its state
        (published, scheduled, retracted) as of now.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        let arguments = try Arguments.parse(words, options: ["publication"])
        if arguments.wantsHelp { return context.console.out(help) }
        try arguments.expectPositionals(0, "")
        let store = try context.openStore(try context.configuration())
        let catalog = try context.store { () throws(StoreError) in try store.loadCatalog() }
        let now = SystemClock().now()
        if let publicationId = try arguments.optional("publication") {
            try listIssues(of: publicationId, in: catalog, now: now, context.console)
        } else {
            listOverview(catalog, now: now, context.console)
        }
    }

    private static func listIssues(of publicationId: String, in catalog: Catalog, now: Instant, _ console: Console)
        throws(CLIError) {
        guard let publication = catalog.publications.first(where: { $0.id == publicationId }) else {
            throw .failure("no publication \(publicationId)")
        }
        let issues = catalog.issues.filter { $0.publicationId == publicationId }
        console.out("\(publication.id)\t\(publication.title)\t\(issues.count) issues")
        for issue in issues.reversed() {
            let free = issue.free ? "\tfree" : ""
            console.out("\(issue.id)\t\(issue.publishedAt.rfc3339)\t\(issue.state(at: now).rawValue)\t\(issue.title)\(free)")
        }
    }

    private static func listOverview(_ catalog: Catalog, now: Instant, _ console: Console) {
        console.out("publications:")
        for publication in catalog.publications {
            let count = catalog.issues.count { $0.publicationId == publication.id }
            console.out("  \(publication.id)\t\(publication.title)\t\(count) issues")
        }
        console.out("products:")
        for product in catalog.products {
            var details = [product.kind.rawValue, "grants " + product.grants.joined(separator: ",")]
            if let group = product.subscriptionGroup, let level = product.level { details.append("group \(group) level \(level)") }
            if let duration = product.duration { details.append(duration.description) }
            if let issue = product.issue { details.append("issue \(issue.publicationId)/\(issue.issueId)") }
            if let platform = product.platform { details.append(platform) }
            if product.isDiscontinued(at: now) { details.append("discontinued") }
            console.out("  \(product.id)\t" + details.joined(separator: "\t"))
        }
    }
}
