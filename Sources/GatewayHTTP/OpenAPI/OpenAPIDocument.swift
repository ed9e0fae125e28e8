/// The OpenAPI 3.1 description of http-api.md, served at `GET /openapi.json` as `openapi.json`
/// beside this file holds it (compiled in). A test compares its paths and methods with the
/// router's, so neither side can drift.
package enum OpenAPIDocument {
    package static var bytes: [UInt8] { PackageResources.openapi_json }
}
