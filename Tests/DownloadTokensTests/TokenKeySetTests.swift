import Testing
import DownloadTokens
import GatewayCrypto
import Wire

@Suite struct TokenKeySetTests {
    static let secretA = Base64URL.encode([UInt8](repeating: 1, count: 32))
    static let secretB = Base64URL.encode([UInt8](repeating: 2, count: 48))

    @Test func parsesTheConfigurationFormFirstKeySigns() throws {
        let set = try TokenKeySet(parsing: "new:\(Self.secretA), old-2024.1:\(Self.secretB)\n")
        #expect(set.keys.map(\.kid) == ["new", "old-2024.1"])
        #expect(set.signingKey.kid == "new")
        #expect(set.signingKey.secret == [UInt8](repeating: 1, count: 32))
        #expect(set.key(for: "old-2024.1")?.secret.count == 48)
        #expect(set.key(for: "missing") == nil)
    }

    @Test(arguments: [
        ("", TokenKeySetError.empty), (" \n", .empty),
        ("k1", .malformedEntry(index: 1)),
        ("k1:\(secretA),", .malformedEntry(index: 2)),
        (":\(secretA)", .malformedEntry(index: 1)),
        ("k 1:\(secretA)", .invalidKid("k 1")),
        ("k,1:\(secretA)", .malformedEntry(index: 1)),
        ("k1:\(secretA),k1:\(secretB)", .duplicateKid("k1")),
        ("k1:\(secretA)=", .secretNotBase64url(kid: "k1")),
        ("k1:+/" + secretA.dropFirst(2), .secretNotBase64url(kid: "k1")),
        ("k1:\(Base64URL.encode([UInt8](repeating: 1, count: 31)))", .secretTooShort(kid: "k1", bytes: 31)),
        ("k1:", .secretTooShort(kid: "k1", bytes: 0)),
    ])
    func refusesBadConfiguration(text: String, expected: TokenKeySetError) {
        #expect(throws: expected) { try TokenKeySet(parsing: text) }
    }

    @Test func errorsNeverShowTheSecret() {
        let short = Base64URL.encode([UInt8](repeating: 9, count: 31))
        do {
            _ = try TokenKeySet(parsing: "k1:\(short)")
            Issue.record("a short secret was accepted")
        } catch {
            #expect(!error.description.contains(short))
            #expect(error.description.contains("k1"))
        }
    }

    @Test func generatedSetsSerialiseAndParseBack() throws {
        let set = try TokenKeySet.generate(using: SystemRandom())
        #expect(set.keys.count == 1)
        #expect(set.signingKey.secret.count == 32)
        #expect(TokenKey.isValidKid(set.signingKey.kid))
        #expect(try TokenKeySet(parsing: set.serialized) == set)
        #expect(try TokenKeySet(parsing: set.serialized + "\n") == set)
        #expect(try TokenKeySet.generate(using: SystemRandom()) != set)
    }

    @Test func descriptionsLeaveSecretsOut() throws {
        let set = try TokenKeySet(parsing: "k1:\(Self.secretA)")
        #expect(!"\(set)".contains(Self.secretA))
        #expect(!"\(set.signingKey)".contains(Self.secretA))
        #expect("\(set)".contains("k1"))
    }

    @Test func rotationPutsAFreshKeyFirstAndKeepsTheOldOnes() throws {
        let set = try TokenKeySet(parsing: "k1:\(Self.secretA)")
        let rotated = try set.rotated(using: RepeatingRandom(byte: 7))
        #expect(rotated.keys.count == 2)
        #expect(rotated.keys[1].kid == "k1")
        #expect(rotated.signingKey.kid != "k1")
        #expect(rotated.signingKey.secret == [UInt8](repeating: 7, count: 32))
        #expect(try TokenKeySet(parsing: rotated.serialized) == rotated)
    }
}
