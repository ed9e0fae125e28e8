import Foundation

extension IssueGatewayClient {
    /// Registers this device's APNs token so that new issues the reader may download arrive as
    /// background notifications (`content-available`, with the publication and issue ids).
    /// Registering a known token again changes nothing.
    ///
    /// - Parameters:
    ///   - apnsToken: the `deviceToken` of `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`.
    ///   - environment: `.sandbox` for development builds.
    public func registerForPushes(apnsToken: Data, environment: PushEnvironment = .production) async throws(IssueGatewayError) {
        struct Body: Encodable { var platform: String; var apnsToken: String; var environment: String }
        let body = Body(platform: "ios", apnsToken: Self.hex(apnsToken), environment: environment.rawValue)
        _ = try await accountCall("POST", ["devices"], body: try? WireCoding.encoder().encode(body))
    }

    /// Stops pushes to this APNs token (the reader turned notifications off).
    public func unregisterForPushes(apnsToken: Data) async throws(IssueGatewayError) {
        _ = try await accountCall("DELETE", ["devices", Self.hex(apnsToken)])
    }

    private static func hex(_ data: Data) -> String {
        data.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
        }.joined()
    }
}

/// The APNs environment a device token belongs to.
public enum PushEnvironment: String, Sendable, Hashable, CaseIterable {
    /// App Store and TestFlight builds.
    case production
    /// Development builds.
    case sandbox
}
