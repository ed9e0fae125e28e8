import GatewayCore
import GatewayStore
import Wire
import Testing

/// E30's network ranges and client address.
@Suite struct NetworkRangeTests {
    func range(_ text: String) throws -> NetworkRange { try NetworkRange(parsing: text) }
    func address(_ text: String) -> [UInt8] { IPAddress.bytes(text)! }

    @Test func e30RangesOfBothFamiliesHoldTheirAddresses() throws {
        let v4 = try range("192.0.2.0/24"), v6 = try range("2001:db8::/32")
        #expect(v4.contains(address("192.0.2.255")) && !v4.contains(address("192.0.3.0")))
        #expect(v6.contains(address("2001:db8:ffff::1")) && !v6.contains(address("2001:db9::1")))
        #expect(v4.contains(address("::ffff:192.0.2.9")), "an IPv4-mapped address is its IPv4 address")
        #expect(!v6.contains(address("192.0.2.1")))
        let host = try range("198.51.100.7")
        #expect(host.prefixLength == 32 && host.contains(address("198.51.100.7")) && !host.contains(address("198.51.100.8")))
        #expect(try range("2001:db8::1").prefixLength == 128)
    }

    @Test func e30HostBitsAndNonsenseAreRefusedNamingTheEntry() {
        for bad in ["192.0.2.1/24", "2001:db8::1/32", "192.0.2.0/33", "192.0.2.0/", "300.1.1.1", "example.org", "10.0.0.0/8/8", "::ffff:1.2.3.0/64"] {
            #expect(throws: NetworkRange.Invalid.self, "\(bad)") { try NetworkRange(parsing: bad) }
            do { _ = try NetworkRange(parsing: bad) } catch { #expect(error.entry == bad) }
        }
    }

    @Test func e30OverlapsAreFoundWhicheverIsWider() throws {
        #expect(try range("192.0.2.0/24").overlaps(try range("192.0.2.128/25")))
        #expect(try range("192.0.2.128/25").overlaps(try range("192.0.2.0/24")))
        #expect(try !range("192.0.2.0/25").overlaps(try range("192.0.2.128/25")))
        #expect(try range("0.0.0.0/0").overlaps(try range("203.0.113.1")))
        #expect(try !range("2001:db8::/32").overlaps(try range("192.0.2.0/24")))
    }

    @Test func e30ForwardedForIsBelievedOnlyFromTrustedProxies() throws {
        let resolver = ClientAddressResolver(trustedProxies: [try range("10.0.0.0/8"), try range("fd00::/8")])
        #expect(resolver.address(peer: "203.0.113.5", forwardedFor: ["192.0.2.7"]) == address("203.0.113.5"),
                "an untrusted peer's header is ignored")
        #expect(resolver.address(peer: "10.0.0.2", forwardedFor: ["198.51.100.9, 192.0.2.7"]) == address("192.0.2.7"))
        #expect(resolver.address(peer: "10.0.0.2", forwardedFor: ["192.0.2.7, 198.51.100.9"]) == address("198.51.100.9"),
                "what the client wrote on the left is not believed")
        #expect(resolver.address(peer: "10.0.0.2", forwardedFor: ["192.0.2.7", "10.1.1.1, fd00::3"]) == address("192.0.2.7"),
                "trusted hops are skipped, across repeated fields")
        #expect(resolver.address(peer: "10.0.0.2", forwardedFor: []) == address("10.0.0.2"))
        #expect(resolver.address(peer: "10.0.0.2", forwardedFor: ["unknown"]) == nil)
        #expect(resolver.address(peer: nil, forwardedFor: ["192.0.2.7"]) == nil)
    }
}

/// E30: which institution covers an address, among many.
@Suite struct CoveredNetworksTests {
    static let start = Instant(millisecondsSinceEpoch: 0)

    func institution(_ id: String, _ networks: [String]) -> Institution {
        Institution(institutionId: id, name: id, publications: ["monthly"], networks: networks, start: Self.start, end: nil,
                    createdAt: Self.start)
    }

    @Test func e30TheCoveringInstitutionIsFoundAmongManyOfBothFamilies() {
        let many = (0..<500).map { institution("i\($0)", ["10.\($0 / 256).\($0 % 256).0/24", "2001:db8:\(String($0, radix: 16))::/48"]) }
        let networks = CoveredNetworks(many)
        #expect(networks.covering(IPAddress.bytes("10.1.44.9")!)?.institutionId == "i300")
        #expect(networks.covering(IPAddress.bytes("2001:db8:12c::1")!)?.institutionId == "i300")
        #expect(networks.covering(IPAddress.bytes("10.2.0.1")!) == nil)
        #expect(networks.covering(IPAddress.bytes("2001:db9::1")!) == nil)
        #expect(networks.covering(IPAddress.bytes("9.255.255.255")!) == nil)
    }

    @Test func e30WhereRangesOverlapTheFirstCreatedWins() {
        // Overlaps are refused when saved; were they stored, the first created still serves.
        let networks = CoveredNetworks([institution("first", ["10.0.0.0/8"]), institution("second", ["10.1.2.0/24"]),
                                        institution("third", ["10.1.2.128/25"])])
        #expect(networks.covering(IPAddress.bytes("10.1.2.200")!)?.institutionId == "first")
        let reversed = CoveredNetworks([institution("narrow", ["10.1.2.128/25"]), institution("wide", ["10.0.0.0/8"])])
        #expect(reversed.covering(IPAddress.bytes("10.1.2.200")!)?.institutionId == "narrow")
        #expect(reversed.covering(IPAddress.bytes("10.1.2.1")!)?.institutionId == "wide")
    }
}
