import Foundation

/// The `catalog/` folder format (catalog/README.md): `products.json` and one
/// `publications/<id>.json` per publication holding its issues. One file per publication keeps an
/// editor's pull request to the file of the publication they edit.
///
/// Pure: it turns file contents into a validated `Catalog` and back; reading and writing the
/// files is the caller's job (the CLI), so this module does no I/O.
public enum CatalogFolder {
    public static let productsFile = "products.json"
    public static let publicationsFolder = "publications"
    /// Hostile-input limits: a catalog file larger than this is refused before parsing.
    public static let maxFileBytes = 32 << 20
    public static let maxFiles = 10_000

    public static func publicationFile(_ id: String) -> String { "\(publicationsFolder)/\(id).json" }

    /// Parses and validates every file; the first problem refuses the whole catalog, so nothing
    /// from a bad file (or any other) is imported. `files` maps paths relative to the folder
    /// (`products.json`, `publications/monthly.json`) to their contents.
    public static func decode(_ files: [String: Data]) throws(CatalogProblem) -> Catalog {
        guard files.count <= maxFiles else {
            throw CatalogProblem(field: "", message: "more than \(maxFiles) catalog files")
        }
        var catalog = Catalog()
        for name in files.keys.sorted() {
            let data = files[name]!
            guard data.count <= maxFileBytes else {
                throw CatalogProblem(file: name, field: "", message: "is larger than \(maxFileBytes) bytes")
            }
            if name == productsFile {
                let document: ProductsDocument = try parse(data, file: name)
                catalog.products = try attributed(name) { () throws(CatalogProblem) in
                    try products(document)
                }
            } else if let id = publicationId(fromFile: name) {
                let document: PublicationDocument = try parse(data, file: name)
                let (publication, issues) = try attributed(name) { () throws(CatalogProblem) in
                    try document.model(at: FieldPath())
                }
                guard publication.id == id else {
                    throw CatalogProblem(file: name, field: "id",
                                         message: "\(FieldRules.quoted(publication.id)) does not match the file name")
                }
                try validate(publication, issues, file: name)
                catalog.publications.append(publication)
                catalog.issues += issues
            } else {
                throw CatalogProblem(file: name, field: "", message: "is not a catalog file (expected \(productsFile) or \(publicationsFolder)/<id>.json)")
            }
        }
        try validateReferences(catalog)
        return catalog.normalized()
    }

    /// The files of `catalog`, deterministic (sorted keys, issues oldest first) so an export is
    /// stable and diffs stay small. Instants are written in UTC.
    public static func encode(_ catalog: Catalog) -> [String: Data] {
        let normalized = catalog.normalized()
        var issuesByPublication: [String: [Issue]] = [:]
        for issue in normalized.issues { issuesByPublication[issue.publicationId, default: []].append(issue) }
        var files: [String: Data] = [:]
        files[productsFile] = serialize(ProductsDocument(products: normalized.products.map(ProductDocument.init)))
        for publication in normalized.publications {
            files[publicationFile(publication.id)] =
                serialize(PublicationDocument(publication, issues: issuesByPublication[publication.id] ?? []))
        }
        return files
    }

    static func publicationId(fromFile name: String) -> String? {
        let prefix = publicationsFolder + "/", suffix = ".json"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let id = String(name.dropFirst(prefix.count).dropLast(suffix.count))
        return id.contains("/") ? nil : id
    }

    private static func parse<Document: Decodable>(_ data: Data, file: String) throws(CatalogProblem) -> Document {
        do {
            return try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw CatalogProblem(file: file, decoding: error)
        }
    }

    private static func serialize<Document: Encodable>(_ document: Document) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and arrays cannot fail.
        var data = try! encoder.encode(document)
        data.append(0x0a)
        return data
    }

    private static func attributed<T>(_ file: String, _ body: () throws(CatalogProblem) -> T) throws(CatalogProblem) -> T {
        do { return try body() } catch { throw error.in(file: file) }
    }

    private static func validate(_ publication: Publication, _ issues: [Issue], file: String) throws(CatalogProblem) {
        try attributed(file) { () throws(CatalogProblem) in
            try publication.validate()
            _ = try Catalog.validateEach(issues, at: FieldPath("issues"), key: \.id,
                                         duplicate: { "issue \($0.id) appears twice" }) {
                (issue, at) throws(CatalogProblem) in try issue.validate(at: at)
            }
        }
    }

    private static func products(_ document: ProductsDocument) throws(CatalogProblem) -> [Product] {
        var products: [Product] = []
        for (index, product) in document.products.enumerated() {
            products.append(try product.model(at: FieldPath("products").index(index)))
        }
        _ = try Catalog.validateEach(products, at: FieldPath("products"), key: \.id,
                                     duplicate: { "product \($0.id) is defined twice" }) {
            (product, at) throws(CatalogProblem) in try product.validate(at: at)
        }
        try Catalog.validateStoreProducts(products, at: FieldPath("products"))
        return products
    }

    /// Grants and single-issue targets cross files; both are written in products.json.
    private static func validateReferences(_ catalog: Catalog) throws(CatalogProblem) {
        let publications = Set(catalog.publications.map(\.id))
        let issues = Set(catalog.issues.map(\.ref))
        for (index, product) in catalog.products.enumerated() {
            try attributed(productsFile) { () throws(CatalogProblem) in
                try product.validateReferences(publications: publications, issues: issues,
                                               at: FieldPath("products").index(index))
            }
        }
    }
}
