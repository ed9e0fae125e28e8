import GatewayStore
import Wire

/// A session as readers.md's E34 answers it: `{"sessionId", "device": {"id", "name", "platform"},
/// "createdAt", "lastUsedAt", "current"}`; never its secret or hash. One rendering for the list,
/// the ended session of the DELETEs and `device_limit`'s `sessions`.
package enum SessionJSON {
    package static func value(_ session: Session, current: String?) -> JSONValue {
        var device = JSONObject()
        device.set("id", session.device.id.map(JSONValue.string) ?? .null)
        device.set("name", session.device.name.map(JSONValue.string) ?? .null)
        device.set("platform", session.device.platform.map(JSONValue.string) ?? .null)
        var object = JSONObject()
        object.set("sessionId", .string(session.id))
        object.set("device", .object(device))
        object.set("createdAt", .string(session.createdAt.rfc3339))
        object.set("lastUsedAt", .string(session.lastUsedAt.rfc3339))
        object.set("current", .bool(session.id == current))
        return .object(object)
    }

    /// `{"sessions": [...]}`.
    package static func list(_ sessions: [Session], current: String?) -> JSONValue {
        var object = JSONObject()
        object.set("sessions", .array(sessions.map { value($0, current: current) }))
        return .object(object)
    }
}
