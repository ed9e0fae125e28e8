import CommandLineSupport
import GatewayConfiguration
import GatewayStore
import IssueCatalog
import Wire

/// `catalog publish`: one issue from the command line, checked by the same rules as the files.
enum IssuePublishing {
    static let help = """
        usage: issue-gateway catalog publish --publication ID --id ID --title T --published-at RFC3339
                                             [--asset PATH[:BYTES:SHA256]]... [--free] [--replace]

        Adds the issue; a --published-at in the future schedules it. An existing issue is refused
        unless --replace is given, which corrects it (and republishes it if it was retracted).
        --published-at takes RFC 3339 with an offset, e.g. 2026-12-01T00:00:00-05:00.
        --asset may be repeated; BYTES and SHA256 (64 lowercase hex digits) are optional together.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        let arguments = try Arguments.parse(words, options: ["publication", "id", "title", "published-at", "asset"],
                                            flags: ["free", "replace"])
        if arguments.wantsHelp { return context.console.out(help) }
        try arguments.expectPositionals(0, "")
        let issue = try parseIssue(arguments)
        let store = try context.openStore(try context.configuration())
        if arguments.flags.contains("replace") {
            guard let stored = try context.store({ () throws(StoreError) in try store.updateIssue(issue) }) else {
                throw .failure("not found: issue \(issue.id) of publication \(issue.publicationId)")
            }
            context.console.out("corrected \(stored.publicationId)/\(stored.id), published at \(stored.publishedAt.rfc3339)")
        } else {
            switch try context.store({ () throws(StoreError) in try store.insertIssue(issue) }) {
            case .inserted: break
            case .unknownPublication: throw .failure("not found: publication \(issue.publicationId)")
            case .exists: throw .failure("issue \(issue.id) already exists in \(issue.publicationId); pass --replace to correct it")
            }
            context.console.out("published \(issue.publicationId)/\(issue.id) at \(issue.publishedAt.rfc3339)")
        }
    }

    static func parseIssue(_ arguments: Arguments) throws(CLIError) -> Issue {
        let publishedText = try arguments.required("published-at")
        guard let publishedAt = Instant(rfc3339: publishedText) else {
            throw .usage("--published-at \"\(publishedText)\" is not RFC 3339 with an offset, e.g. 2026-12-01T00:00:00-05:00")
        }
        let assets = try (arguments.options["asset"] ?? []).map { (text) throws(CLIError) in try parseAsset(text) }
        let issue = Issue(publicationId: try arguments.required("publication"), id: try arguments.required("id"),
                          title: try arguments.required("title"), publishedAt: publishedAt,
                          free: arguments.flags.contains("free"), assets: assets)
        do {
            try issue.validate()
        } catch {
            throw .usage("--\(optionName(for: error.field)): \(error.message)")
        }
        return issue
    }

    /// `PATH[:BYTES:SHA256]`, split from the right so a path may itself hold `:`.
    static func parseAsset(_ text: String) throws(CLIError) -> Asset {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count >= 3, let bytes = Int64(parts[parts.count - 2]), parts[parts.count - 1].utf8.count == 64 {
            return Asset(path: parts.dropLast(2).joined(separator: ":"), bytes: bytes, sha256: String(parts[parts.count - 1]))
        }
        return Asset(path: text)
    }

    /// Maps a field path of `Issue.validate()` back to the option that set it.
    private static func optionName(for field: String) -> String {
        if field.hasPrefix("assets") { return "asset (\(field))" }
        switch field {
        case "publicationId": return "publication"
        case "publishedAt": return "published-at"
        default: return field
        }
    }
}
