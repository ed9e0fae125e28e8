import Wire

/// Reader devices for APNs, by token and by account.
extension RecordRows {
    public static let deviceColumns: SQL = "SELECT account_id, apns_token, environment, platform, registered_at FROM devices"

    public static func device(_ row: some StoredRow) -> Device {
        Device(accountId: row.text(0), apnsToken: row.text(1),
               environment: PushEnvironment(rawValue: row.text(2)) ?? .production, platform: row.text(3),
               registeredAt: row.instant(4))
    }
}

extension SQLReading {
    public func devices(ofAccount accountId: String) throws(StoreError) -> [Device] {
        try connection.query("\(RecordRows.deviceColumns) WHERE account_id = \(accountId) ORDER BY apns_token", RecordRows.device)
    }

    public func device(_ apnsToken: String) throws(StoreError) -> Device? {
        try connection.queryFirst("\(RecordRows.deviceColumns) WHERE apns_token = \(apnsToken)", RecordRows.device)
    }
}

extension SQLWriteTransaction {
    /// A token held by another account moves to this one (one install, one reader).
    public func save(_ device: Device) throws(StoreError) {
        try connection.run(.upsert(
            into: "devices", key: ["apns_token": device.apnsToken],
            set: ["account_id": device.accountId, "environment": device.environment.rawValue, "platform": device.platform,
                  "registered_at": device.registeredAt]))
    }

    public func deleteDevice(_ apnsToken: String, ofAccount accountId: String?) throws(StoreError) -> Bool {
        let ofAccount: SQL = accountId.map { " AND account_id = \($0)" } ?? ""
        return try connection.run("DELETE FROM devices WHERE apns_token = \(apnsToken)\(ofAccount)") > 0
    }
}
