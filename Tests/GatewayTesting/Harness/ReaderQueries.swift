import Foundation

/// What a reader's tests ask again and again, asked one way: the issues an account may download.
extension GatewayHarness {
    /// A reader as the routes know it: the account id and its bearer secret.
    package typealias Reader = (id: String, token: String)

    /// The ids of the issues `reader` may download now (`?entitled=true`), of one publication when given.
    package func entitledIssueIds(_ reader: Reader, publication: String? = nil) throws -> Set<String> {
        let query = publication.map { "&publication=\($0)" } ?? ""
        let list = try entitledList(reader, query: query)
        return Set(list.objects("issues").compactMap { $0["id"] as? String })
    }

    /// `publication/issue` of every issue `reader` may download now, across publications.
    package func entitledIssueKeys(_ reader: Reader) throws -> Set<String> {
        let list = try entitledList(reader, query: "")
        return Set(list.objects("issues").map { "\($0["publicationId"] as? String ?? "")/\($0["id"] as? String ?? "")" })
    }

    /// The list; a plain error, not `#require`, when it is not a 200, so that polls may call it
    /// until it holds.
    private func entitledList(_ reader: Reader, query: String) throws -> APIResponse {
        let list = try client.get("/v1/accounts/\(reader.id)/issues?entitled=true\(query)", as: reader.token)
        guard list.status == 200 else { throw HarnessError.unexpected("\(list.status): \(list.text)") }
        return list
    }
}
