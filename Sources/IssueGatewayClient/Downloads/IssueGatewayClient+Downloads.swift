import Foundation

extension IssueGatewayClient {
    /// A download token and the URLs (or cookies) for one issue's files, for apps that hand the
    /// downloads to their own manager (a background `URLSession`). Throws
    /// ``IssueGatewayError/Code/notEntitled`` with its ``IssueGatewayError/reason`` when the reader
    /// may not download it.
    public func downloadAccess(publication publicationId: String, issue issueId: String)
        async throws(IssueGatewayError) -> DownloadAccess {
        try await account(DownloadAccess.self, "POST", "publications", publicationId, "issues", issueId, "token")
    }

    /// Downloads every file of an issue into `directory`, each at its asset path below it
    /// (`directory/content/monthly/2026-03/issue.pdf`), and returns the files in asset order.
    ///
    /// When the CDN answers 401, 403 or 410 (an expired or refused link; tokens.md), a new token
    /// is asked for once and the file tried again; a second refusal throws
    /// ``IssueGatewayError/Code/downloadRefused`` with the CDN's status.
    @discardableResult
    public func download(publication publicationId: String, issue issueId: String, into directory: URL)
        async throws(IssueGatewayError) -> [URL] {
        var access = try await downloadAccess(publication: publicationId, issue: issueId)
        var renewed = false
        var files: [URL] = []
        var index = 0
        while index < access.urls.count {
            let url = access.urls[index]
            let destination = try Self.destination(of: url, in: directory)
            let response: HTTPResponse
            do {
                response = try await connection.transport.download(access.request(for: url), to: destination)
            } catch {
                throw .network(error)
            }
            if (200..<300).contains(response.status) {
                files.append(destination)
                index += 1
            } else if Self.cdnRefusals.contains(response.status) && !renewed {
                renewed = true
                access = try await downloadAccess(publication: publicationId, issue: issueId)
            } else {
                throw IssueGatewayError(code: .downloadRefused, message: "the CDN answered \(response.status) for \(url.path)",
                                        status: response.status)
            }
        }
        return files
    }

    /// What a CDN answers for a link it no longer takes (tokens.md: "a reader app treats 401, 403
    /// or 410 from the CDN as get a new token, once").
    private static let cdnRefusals: Set<Int> = [401, 403, 410]

    /// `directory` followed by the URL's path; a path with `.` or `..` segments (which the gateway
    /// never hands out) keeps only its last name.
    private static func destination(of url: URL, in directory: URL) throws(IssueGatewayError) -> URL {
        let segments = url.path.split(separator: "/").map(String.init)
        let safe = segments.allSatisfy { $0 != "." && $0 != ".." } ? segments : Array(segments.suffix(1))
        guard !safe.isEmpty else { throw .malformed("a download URL without a path: \(url)") }
        let file = safe.reduce(directory) { $0.appendingPathComponent($1) }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw IssueGatewayError(code: .fileSystem, message: "could not make the folder for \(file.path): \(error)")
        }
        return file
    }
}
