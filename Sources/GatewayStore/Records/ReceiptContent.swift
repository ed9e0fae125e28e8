import Entitle
import GatewayCrypto
import Wire

/// A base64 App Store receipt and its content address: the lowercase hex SHA-256 of its text.
/// Stored once however many subscriptions it describes; each subscription points to its latest.
public struct ReceiptContent: Hashable, Sendable {
    public let digest: String
    public let data: String

    public init(data: String) throws(StoreError) {
        do {
            digest = Hex.encode(try SHA256Digest.hash(data.utf8))
        } catch {
            throw .failed
        }
        self.data = data
    }

    /// A receipt as read back, trusted to match its digest.
    public init(digest: String, data: String) { self.digest = digest; self.data = data }
}
