import Wire

/// What registering a device did (http-api.md: 201 new, 200 known; past the account's limit
/// nothing is stored).
public enum DeviceRegistration: Sendable, Equatable {
    case created(Device)
    /// The account had this token already (its environment is updated if it changed).
    case known(Device)
    /// The account holds `limit` devices already and this token is not one of them.
    case limitReached(limit: Int)
    /// No such account; nothing was stored.
    case unknownAccount
}

/// Reader devices for APNs, one unit of work each, so the per-account limit holds also when two
/// registrations race.
extension GatewayStore {
    /// Registers `device` for its account. A token another account held moves to this one (the
    /// install now belongs to this reader).
    public func registerDevice(_ device: Device, limit: Int) throws(StoreError) -> DeviceRegistration {
        try write { tx throws(StoreError) in
            guard try tx.account(id: device.accountId) != nil else { return .unknownAccount }
            let held = try tx.devices(ofAccount: device.accountId)
            if var known = held.first(where: { $0.apnsToken == device.apnsToken }) {
                // Saved again even unchanged: `registeredAt` is when the device last sent the
                // token, which an APNs 410 is compared with (`forgetDeviceToken`).
                known.environment = device.environment
                known.platform = device.platform
                known.registeredAt = max(known.registeredAt, device.registeredAt)
                try tx.save(known)
                return .known(known)
            }
            guard held.count < limit else { return .limitReached(limit: limit) }
            try tx.save(device)
            return .created(device)
        }
    }

    /// Removes one of the account's devices; false when the account has no such token.
    public func removeDevice(_ apnsToken: String, ofAccount accountId: String) throws(StoreError) -> Bool {
        try write { tx throws(StoreError) in try tx.deleteDevice(apnsToken, ofAccount: accountId) }
    }

    /// Removes a token APNs called unregistered (410), whichever account holds it, unless it was
    /// registered again after `unregisteredAt` (Apple: compare the 410's timestamp with when the
    /// token was last received from the device).
    public func forgetDeviceToken(_ apnsToken: String, unregisteredAt: Instant?) throws(StoreError) {
        try write { tx throws(StoreError) in
            guard let device = try tx.device(apnsToken) else { return }
            if let unregisteredAt, device.registeredAt > unregisteredAt { return }
            try tx.deleteDevice(apnsToken, ofAccount: nil)
        }
    }

    public func devices(ofAccount accountId: String) throws(StoreError) -> [Device] {
        try read { tx throws(StoreError) in try tx.devices(ofAccount: accountId) }
    }
}
