import Entitle
import Foundation
@testable import GatewayConfiguration
import IssueCatalog
import Wire

/// The repository's sample catalog (catalog/: 180 monthly and 157 weekly issues) and a reader
/// subscribed to the monthly for 15 years: the list the HTTP benchmark measures, ~80 KiB rendered.
package extension GatewayHarness {
    package static let sampleCatalog = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../catalog").standardizedFileURL.path

    /// A gateway whose store holds the sample catalog, imported as `issue-gateway catalog import`
    /// does.
    package static func withSampleCatalog(transport: Transport = .inProcess) throws -> GatewayHarness {
        let h = try GatewayHarness(transport: transport)
        var files: [String: Data] = [:]
        let root = URL(fileURLWithPath: sampleCatalog)
        files[CatalogFolder.productsFile] = try Data(contentsOf: root.appendingPathComponent(CatalogFolder.productsFile))
        for id in ["monthly", "weekly"] {
            let name = CatalogFolder.publicationFile(id)
            files[name] = try Data(contentsOf: root.appendingPathComponent(name))
        }
        try h.runtime.core.store.importCatalog(try CatalogFolder.decode(files))
        try h.runtime.core.catalog.reload()
        return h
    }

    /// `monthly.ios.annual` renewed every year from 2012 to 2026 (15 transactions, one chain).
    package func subscribeFor15Years(_ accountId: String) throws {
        let transactions = (2012...2026).map { year in
            Transaction(environment: .production, transactionId: "y\(year)", originalTransactionId: "y2012",
                        productId: "monthly.ios.annual", purchaseDate: Instant(rfc3339: "\(year)-01-01T00:00:00Z")!,
                        expiresDate: Instant(rfc3339: "\(year + 1)-01-01T00:00:00Z")!, source: .receipt)
        }
        try store(VerifiedFacts(transactions: transactions), for: accountId)
    }
}

package extension APIResponse {
    /// The body as sent, gzip-decoded when `Content-Encoding: gzip` says it is coded.
    package var decodedBody: [UInt8]? {
        header("Content-Encoding") == "gzip" ? Gzip.decompress(body) : body
    }

    package var decodedJSON: [String: Any] {
        guard let bytes = decodedBody else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }
}
