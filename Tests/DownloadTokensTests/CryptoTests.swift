import Testing
import GatewayCrypto
import Wire

@Suite struct CryptoTests {
    // RFC 4231 §4.2, §4.3, §4.7 (also tokens.md, "Test vectors").
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), "Hi There",
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), "what do ya want for nothing?",
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    ])
    func hmacSHA256MatchesRFC4231(key: [UInt8], data: String, mac: String) throws {
        #expect(Hex.encode(try HMACSHA256.authenticationCode(key: key, message: data.utf8)) == mac)
    }

    @Test func hmacWithEmptyKeyIsDefined() throws {
        // Python: hmac.new(b"", b"", hashlib.sha256).hexdigest()
        #expect(Hex.encode(try HMACSHA256.authenticationCode(key: [], message: [UInt8]()))
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func sha256OfKnownInputs() throws {
        // FIPS 180-4 examples.
        #expect(Hex.encode(try SHA256Digest.hash("abc".utf8))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Hex.encode(try SHA256Digest.hash([UInt8]()))
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(ConstantTime.equals([], []))
    }

    @Test func systemRandomGivesDistinctBytesOfTheAskedLength() throws {
        let a = try SystemRandom().randomBytes(count: 32)
        let b = try SystemRandom().randomBytes(count: 32)
        #expect(a.count == 32 && b.count == 32)
        #expect(a != b)
    }

    @Test func hexRoundTripAndStrictness() {
        #expect(Hex.encode([0x00, 0xff, 0x1a]) == "00ff1a")
        #expect(Hex.decode("00FF1a") == [0x00, 0xff, 0x1a])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }

    @Test func secretHashMatchesOnlyItsSecret() throws {
        let stored = try SecretHash.hex(of: "s3cret")
        #expect(stored == Hex.encode(try SHA256Digest.hash("s3cret".utf8)))
        #expect(stored.count == 64)
        #expect(SecretHash.matches(secret: "s3cret", storedHex: stored))
        #expect(!SecretHash.matches(secret: "s3cret ", storedHex: stored))
        #expect(!SecretHash.matches(secret: "s3cret", storedHex: "not-hex"))
        #expect(!SecretHash.matches(secret: "s3cret", storedHex: String(stored.dropLast(2))))
    }

    @Test func secretDigestRoundTripsItsHexAndMatchesOnlyItsSecret() throws {
        let digest = try SecretDigest(of: "s3cret")
        #expect(digest.hex == (try SecretHash.hex(of: "s3cret")))
        #expect(SecretDigest(hex: digest.hex) == digest)
        #expect(digest.matches(try SecretDigest(of: "s3cret")))
        #expect(!digest.matches(try SecretDigest(of: "s3creu")))
        #expect(digest.matches(storedHex: digest.hex))
        #expect(!digest.matches(storedHex: try SecretHash.hex(of: "other")))
        #expect(!digest.matches(storedHex: String(digest.hex.dropLast(2))))
        #expect(SecretDigest(hex: "zz") == nil)
    }

    @Test func generatedSecretsAre256BitBase64url() throws {
        let a = try SecretGenerator.generate(using: SystemRandom())
        let b = try SecretGenerator.generate(using: SystemRandom())
        #expect(a.count == 43)
        #expect(Base64URL.decode(a)?.count == 32)
        #expect(a != b)
    }
}

@Suite struct CryptoBase64URLTests {
    // RFC 4648 §10 vectors, in the URL-safe alphabet without padding.
    @Test(arguments: [("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
                      ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy")])
    func rfc4648Vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(plain.utf8) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test func usesTheURLSafeAlphabet() {
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
    }

    @Test(arguments: ["Zg==", "Zm8=", "+/+/", "Zm9v Yg", "Z", "Zm9vY", "Zh", "Zm9", "Zm\n8", "é"])
    func refusesNonCanonicalOrForeignSpellings(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func refusesAForeignByteAtEveryPositionOfALongText() throws {
        let encoded = Array(Base64URL.encode(try SystemRandom().randomBytes(count: 300)).utf8)
        #expect(Base64URL.decode(utf8: encoded)?.count == 300)
        for index in encoded.indices {
            for foreign in [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "/"), 0x00, 0x80, 0xff] {
                var changed = encoded
                changed[index] = foreign
                #expect(Base64URL.decode(utf8: changed) == nil)
            }
        }
    }

    @Test func decodesASliceAsTheArrayItCameFrom() throws {
        let bytes = try SystemRandom().randomBytes(count: 4_000)
        let text = Array(("x." + Base64URL.encode(bytes) + ".y").utf8)
        #expect(Base64URL.decode(utf8: text[2..<(text.count - 2)]) == bytes)
        #expect(Base64URL.decode(utf8: AnySequenceOfBytes(text[2..<(text.count - 2)])) == bytes)
    }

    @Test func roundTripsEveryLength() throws {
        let bytes = try SystemRandom().randomBytes(count: 64)
        for n in 0...bytes.count {
            let slice = Array(bytes.prefix(n))
            #expect(Base64URL.decode(Base64URL.encode(slice)) == slice)
        }
    }
}

@Test func percentDecodingDecodesOnceAndRefusesBrokenEscapes() {
    #expect(PercentDecoding.decode("a%2e%2E%252e") == "a..%2e", "decoded once, either case")
    #expect(PercentDecoding.decode("a+b") == "a+b")
    #expect(PercentDecoding.decode("a+b%20c", plusIsSpace: true) == "a b c")
    #expect(PercentDecoding.decode("%") == nil)
    #expect(PercentDecoding.decode("%4") == nil)
    #expect(PercentDecoding.decode("%G1") == nil)
    #expect(PercentDecoding.decode("%ff") == nil, "not UTF-8 as text")
    #expect(PercentDecoding.decode(bytes: Array("%ff".utf8)) == [0xff])
}

/// A collection of bytes without contiguous storage, for the decoder's copying path.
private struct AnySequenceOfBytes: Collection {
    let base: ArraySlice<UInt8>
    init(_ base: ArraySlice<UInt8>) { self.base = base }
    var startIndex: Int { base.startIndex }
    var endIndex: Int { base.endIndex }
    subscript(position: Int) -> UInt8 { base[position] }
    func index(after i: Int) -> Int { i + 1 }
}
