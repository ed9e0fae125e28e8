import GatewayStore
import Wire

/// Reader devices for APNs, by token and by account.
enum DeviceRows {
    static let columns = "SELECT account_id, apns_token, environment, platform, registered_at FROM devices"

    static func device(_ row: SQLiteRow) -> Device {
        Device(accountId: row.text(0), apnsToken: row.text(1),
               environment: PushEnvironment(rawValue: row.text(2)) ?? .production, platform: row.text(3),
               registeredAt: row.instant(4))
    }
}

extension SQLiteReading {
    func devices(ofAccount accountId: String) throws(StoreError) -> [Device] {
        try connection.query(DeviceRows.columns + " WHERE account_id = ? ORDER BY apns_token", [.text(accountId)],
                             DeviceRows.device)
    }

    func device(_ apnsToken: String) throws(StoreError) -> Device? {
        try connection.queryFirst(DeviceRows.columns + " WHERE apns_token = ?", [.text(apnsToken)], DeviceRows.device)
    }
}

extension SQLiteWriteTransaction {
    func save(_ device: Device) throws(StoreError) {
        try connection.run("""
            INSERT INTO devices (apns_token, account_id, environment, platform, registered_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (apns_token) DO UPDATE SET account_id = excluded.account_id, environment = excluded.environment,
                platform = excluded.platform, registered_at = excluded.registered_at
            """, [.text(device.apnsToken), .text(device.accountId), .text(device.environment.rawValue),
                  .text(device.platform), .integer(device.registeredAt.millisecondsSinceEpoch)])
    }

    func deleteDevice(_ apnsToken: String, ofAccount accountId: String?) throws(StoreError) -> Bool {
        if let accountId {
            return try connection.run("DELETE FROM devices WHERE apns_token = ? AND account_id = ?",
                                      [.text(apnsToken), .text(accountId)]) > 0
        }
        return try connection.run("DELETE FROM devices WHERE apns_token = ?", [.text(apnsToken)]) > 0
    }
}
