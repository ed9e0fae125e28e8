import Entitle
import GatewayCrypto
import Wire

/// New secrets and identifiers from the configured randomness, and the hash a secret is stored as
/// (http-api.md, Auth: secrets are known only by their SHA-256).
package struct Identifiers: Sendable {
    package let random: any RandomBytesSource

    package init(random: any RandomBytesSource) { self.random = random }

    /// A bearer secret: 256 random bits, base64url.
    package func newSecret() throws(GatewayError) -> String {
        do { return try SecretGenerator.generate(using: random) } catch { throw .failed("no randomness available") }
    }

    /// An identifier for keys and accounts: 96 random bits in lower-case hex (fits the id rule).
    package func newIdentifier() throws(GatewayError) -> String {
        do { return Hex.encode(try random.randomBytes(count: 12)) } catch { throw .failed("no randomness available") }
    }

    package func hash(_ secret: String) throws(GatewayError) -> String {
        do { return try SecretHash.hex(of: secret) } catch { throw .failed("hashing failed") }
    }
}
