/// A periodical (magazine, newspaper, newsletter). It has issues.
public struct Publication: Hashable, Sendable {
    public var id: String
    public var title: String

    public init(id: String, title: String) { self.id = id; self.title = title }
}
