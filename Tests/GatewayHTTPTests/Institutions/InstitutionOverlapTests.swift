import Foundation
import GatewayConfiguration
import Testing
import GatewayTesting

/// E30: institutions' ranges may overlap (library networks often do); where several institutions
/// cover an address, the one created first serves it.
@Suite struct InstitutionOverlapTests {
    let routes = InstitutionRouteTests()

    func body(_ name: String, _ networks: String) -> String {
        #"{"name":"\#(name)","publications":["monthly"],"networks":[\#(networks)],"start":"2026-01-15T00:00:00Z","end":null}"#
    }

    func servedBy(_ h: H, _ address: String) throws -> String? {
        let list = try routes.issues(h, from: address)
        return (list.json["institution"] as? [String: Any])?["institutionId"] as? String
    }

    @Test func e30OverlappingInstitutionsAreAcceptedAndTheOneCreatedFirstServes() throws {
        let h = try H()
        try h.seedCatalog()
        let city = try routes.create(h, body("City Library", #""192.0.2.0/24""#))
        #expect(city.status == 201, "\(city.text)")
        let cityId = try #require(city.json["institutionId"] as? String)
        h.clock.advance(seconds: 60)
        let campus = try routes.create(h, body("Campus Library", #""192.0.2.128/25","198.51.100.0/24""#))
        #expect(campus.status == 201, "an overlap with another institution's range is normal: \(campus.text)")
        let campusId = try #require(campus.json["institutionId"] as? String)

        #expect(try servedBy(h, "192.0.2.200") == cityId, "both cover it: the one created first")
        #expect(try servedBy(h, "198.51.100.7") == campusId, "only the later one covers it")
        let renamed = try h.client.put("/v1/institutions/\(campusId)", as: H.adminKey,
                                       json: body("Campus Libraries", #""192.0.2.128/25","198.51.100.0/24""#))
        #expect(renamed.status == 200, "a PUT that keeps its overlapping range: \(renamed.text)")
        #expect(try servedBy(h, "192.0.2.200") == cityId, "a change keeps the order of creation")
        #expect(try h.client.delete("/v1/institutions/\(cityId)", as: H.adminKey).status == 200)
        #expect(try servedBy(h, "192.0.2.200") == campusId, "the other one covers it once the first is gone")
    }
}
