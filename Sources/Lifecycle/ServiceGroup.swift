/// Services that live together: started in order, stopped in reverse order, each joined before
/// the next is stopped (the HTTP server finishes in-flight requests before the services its
/// handlers use go away; the access log, started first, flushes last).
public final class ServiceGroup: Sendable {
    public let services: [any BackgroundService]

    public init(_ services: [any BackgroundService]) { self.services = services }

    /// Starts each in order. When one fails, those already started are stopped (in reverse) and
    /// the error is rethrown: no service is left running behind a failed start.
    public func start() throws {
        for (index, service) in services.enumerated() {
            do {
                try service.start()
            } catch {
                Self.stop(services[..<index])
                throw error
            }
        }
    }

    /// Stops and joins every service, last started first.
    public func stop() { Self.stop(services[...]) }

    /// Starts the group, blocks in `wait` (e.g. until SIGTERM), then stops the group.
    public func run(until wait: () throws -> Void) throws {
        try start()
        defer { stop() }
        try wait()
    }

    private static func stop(_ services: ArraySlice<any BackgroundService>) {
        for service in services.reversed() {
            service.stop()
            service.join()
        }
    }
}
