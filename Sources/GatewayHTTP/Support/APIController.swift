/// One area of http-api.md: holds only what its routes need and registers them (the shape of
/// Hummingbird's `RouteCollection`). The runtime composes controllers; none extends another.
package protocol APIController: Sendable {
    func register(_ router: APIRouterBuilder)
}
