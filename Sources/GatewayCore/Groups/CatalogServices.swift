/// The catalog as every request reads it, its edits, and the keys editors edit it with.
package struct CatalogServices: Sendable {
    package let cache: CatalogCache
    package let changes: CatalogChanges
    package let keys: APIKeys
}
