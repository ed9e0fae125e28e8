/// Remembers tokens that passed steps 1–4 of tokens.md but the time window. An edge asks about
/// the same token for every request of one download (range requests of a large PDF); the MAC and
/// the JSON then cost once per token, not once per request. Only verified tokens are remembered,
/// keyed by their exact text; the time window (step 4) and the path and method (step 5) are still
/// checked on every request. A memo belongs to one key set: build a new one when the keys change.
public protocol VerifiedTokenMemo: Sendable {
    func verified(_ token: String) -> VerifiedDownloadToken?
    func remember(_ token: String, _ verified: VerifiedDownloadToken)
}
