import Foundation

extension IssueGatewayClient {
    /// The reader's issues of one publication, newest first, each with whether it may be
    /// downloaded and why (`GET /v1/accounts/{id}/issues?publication=`).
    ///
    /// Cheap to call on every appearance of the list: each page is asked for with the entity tag
    /// of its last answer and a 304 answers from the kept copy; every page is followed
    /// (`limit` and `after`); answers arrive gzip-compressed.
    ///
    /// - Parameters:
    ///   - publicationId: the publication.
    ///   - entitledOnly: only the issues the reader may download.
    public func issues(in publicationId: String, entitledOnly: Bool = false) async throws(IssueGatewayError) -> [ReaderIssue] {
        struct Page: Decodable { var issues: [ReaderIssue]; var next: String? }
        var issues: [ReaderIssue] = []
        var cursor: String?
        repeat {
            var query = [URLQueryItem(name: "publication", value: publicationId)]
            if entitledOnly { query.append(URLQueryItem(name: "entitled", value: "true")) }
            query.append(URLQueryItem(name: "limit", value: String(pageSize)))
            if let cursor { query.append(URLQueryItem(name: "after", value: cursor)) }
            let page = try GatewayConnection.decode(Page.self, from: try await listPage(query: query))
            issues += page.issues
            cursor = page.next
        } while cursor != nil
        return issues
    }

    /// One page's body: the kept copy on a 304, else the new answer, kept with its tag.
    private func listPage(query: [URLQueryItem]) async throws(IssueGatewayError) -> Data {
        let session = try await sessions.required()
        var call = APICall("GET", query: query, bearer: session.token)
        call.path = ["v1", "accounts", session.accountId, "issues"]
        let url = connection.request(call).url
        let kept = await lists.entry(for: url)
        let response = try await accountCall("GET", ["issues"], query: query,
                                             headers: kept.map { ["If-None-Match": $0.entityTag] } ?? [:],
                                             accepting: { (200..<300).contains($0) || ($0 == 304 && kept != nil) })
        if response.status == 304, let kept { return kept.body }
        if let tag = response.header("ETag") {
            await lists.keep(ListCache.Entry(entityTag: tag, body: response.body), for: url)
        }
        return response.body
    }
}
