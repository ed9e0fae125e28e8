/// One registered route: what runs for a method and pattern, where, and how large a body it takes.
public struct Route: Sendable {
    public let method: String
    public let pattern: RoutePattern
    public let execution: Execution
    /// Overrides the server's `maxBodyBytes` (the limit is known from the head, before the body).
    public let maxBodyBytes: Int?
    /// The body goes to a temporary file as it arrives (`HTTPRequest.spooledBody`), never held in
    /// memory: for bodies larger than the buffer budget.
    public let spoolsBody: Bool
    /// Runs on the head of a request whose body is still arriving, before any of the body is kept
    /// (`HeadDecision`); nil reads every body.
    public let authorizeHead: HTTPHeadCheck?
    /// Runs first, on the event loop; nil hands the request to `handler` on `execution`.
    public let fastPath: HTTPPlanningFastPath?
    public let handler: HTTPHandler
}
