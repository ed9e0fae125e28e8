import Testing

/// Tags the suites carry, so a run can pick or leave out what needs more than the process itself
/// (`swift test --skip IntegrationTests` leaves out every integration suite at once; Xcode and
/// `swift test` list them by tag).
extension Tag {
    /// Needs something outside the test process: another process, a server, a browser engine.
    @Tag public static var integration: Self
    /// Runs against the throw-away PostgreSQL cluster (`ISSUE_GATEWAY_TEST_DATABASE_URL`).
    @Tag public static var postgres: Self
    /// Starts real nginx (`/usr/sbin/nginx`).
    @Tag public static var nginx: Self
    /// Starts Google's Pub/Sub emulator (`gcloud beta emulators pubsub start`).
    @Tag public static var emulator: Self
    /// Starts the fake APNs (`Tests/Fakes/fake_apns.py`, HTTP/2 over TLS).
    @Tag public static var apns: Self
    /// Starts `issue-gateway` or a simulator as a child process.
    @Tag public static var process: Self
    /// Talks to a gateway over a real socket on an ephemeral port.
    @Tag public static var sockets: Self
}
