import GatewayCore
import GatewayStore
import HTTPServer
import Wire

/// Reader devices for APNs background notifications (http-api.md, devices). The app
/// registers its device token after each launch (APNs may change it), so registering a known token
/// again is a 200 that changes nothing.
package struct DeviceController: APIController {
    private let access: Access
    private let devices: Devices
    private let clock: any GatewayClock

    package init(access: Access, devices: Devices, clock: any GatewayClock) {
        self.access = access; self.devices = devices; self.clock = clock
    }
    /// APNs device tokens are 32 bytes today; Apple says their length may grow, so 32–100 bytes
    /// (64–200 hex digits, an even number) are taken.
    package static let apnsTokenHexDigits = 64...200

    package func register(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/accounts/{accountId}/devices", execution: .store, route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context), accountId = account.id
            let device = try deviceBody(RequestBody(context.request), accountId: accountId)
            let (registered, created) = try devices.register(device)
            return .json(created ? 201 : 200) { w in w.device(registered) }
        })
        router.add("DELETE", "/v1/accounts/{accountId}/devices/{apnsToken}", execution: .store, route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context), accountId = account.id
            guard let token = Self.apnsToken(context.parameter("apnsToken")) else {
                throw .notFound("account \(accountId) has no such device")
            }
            try devices.remove(token, ofAccount: accountId)
            return .json(200) { w in
                w.object { w in w.field("apnsToken", token) }
            }
        })
    }

    /// `{"platform": "ios", "apnsToken": "hex", "environment": "production"|"sandbox"}`;
    /// `environment` defaults to production (a store build's token).
    private func deviceBody(_ body: RequestBody, accountId: String) throws(GatewayError) -> Device {
        let platform = try body.optionalString("platform") ?? "ios"
        guard platform == "ios" else { throw .invalid("platform must be ios") }
        guard let token = Self.apnsToken(try body.string("apnsToken")) else {
            throw .invalid("apnsToken must be \(Self.apnsTokenHexDigits.lowerBound) to \(Self.apnsTokenHexDigits.upperBound) hex digits, an even number")
        }
        let environmentText = try body.optionalString("environment") ?? PushEnvironment.production.rawValue
        guard let environment = PushEnvironment(rawValue: environmentText) else {
            throw .invalid("environment must be production or sandbox")
        }
        return Device(accountId: accountId, apnsToken: token, environment: environment, platform: platform,
                      registeredAt: clock.now())
    }

    /// The token in lowercase hex (the form APNs and the store use), or nil when it is not an even
    /// number of hex digits within `apnsTokenHexDigits`.
    package static func apnsToken(_ text: String) -> String? {
        guard apnsTokenHexDigits.contains(text.utf8.count), let bytes = Hex.decode(text) else { return nil }
        return Hex.encode(bytes)
    }
}

extension JSONWriter {
    package mutating func device(_ d: Device) {
        object { w in
            w.field("platform", d.platform)
            w.field("apnsToken", d.apnsToken)
            w.field("environment", d.environment.rawValue)
            w.field("registeredAt", d.registeredAt.rfc3339)
        }
    }
}
