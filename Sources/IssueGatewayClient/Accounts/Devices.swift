import Foundation

/// The device a session is made for (readers.md, Words): an id the app chooses and keeps (a
/// UUID), a name the reader recognises, and the platform.
public struct DeviceInfo: Sendable, Codable, Hashable {
    /// The app's own stable id for this device, e.g. `UIDevice.current.identifierForVendor`.
    public var id: String
    /// A name the reader recognises in the session list ("Anna's iPad").
    public var name: String
    /// `ios`, `android`, `web`, …
    public var platform: String

    /// Makes a device description.
    public init(id: String, name: String, platform: String) {
        self.id = id
        self.name = name
        self.platform = platform
    }
}

/// One live session of the account, as `GET /v1/accounts/{id}/sessions` lists it (E34).
public struct SessionInfo: Sendable, Decodable, Hashable, Identifiable {
    /// The device a session was made for; the first session (from `POST /v1/accounts`) has none.
    public struct Device: Sendable, Decodable, Hashable {
        /// The app's id of the device.
        public var id: String?
        /// Its name.
        public var name: String?
        /// Its platform.
        public var platform: String?

        init(id: String? = nil, name: String? = nil, platform: String? = nil) {
            self.id = id
            self.name = name
            self.platform = platform
        }
    }

    /// The session's id, for ``IssueGatewayClient/endSession(_:)``.
    public var sessionId: String
    /// The device, its fields `nil` for the account's first session.
    public var device: Device
    /// When the session was made.
    public var createdAt: Date
    /// When it was last used, to the hour.
    public var lastUsedAt: Date?
    /// Whether it is the session asking.
    public var current: Bool

    /// The session's id.
    public var id: String { sessionId }

    enum CodingKeys: String, CodingKey { case sessionId, device, createdAt, lastUsedAt, current }

    /// Decodes a listed session; a `null` or absent device is one with no fields.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sessionId = try container.decode(String.self, forKey: .sessionId)
        device = try container.decodeIfPresent(Device.self, forKey: .device) ?? Device()
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        lastUsedAt = try container.decodeIfPresent(Date.self, forKey: .lastUsedAt)
        current = try container.decodeIfPresent(Bool.self, forKey: .current) ?? false
    }
}
