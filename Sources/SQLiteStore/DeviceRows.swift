import GatewayStore
import Wire

/// Reader devices for APNs, by token and by account (read with `RecordRows.device`).
extension SQLiteReading {
    func devices(ofAccount accountId: String) throws(StoreError) -> [Device] {
        try connection.query(RecordRows.deviceColumns + " WHERE account_id = ? ORDER BY apns_token", [.text(accountId)],
                             RecordRows.device)
    }

    func device(_ apnsToken: String) throws(StoreError) -> Device? {
        try connection.queryFirst(RecordRows.deviceColumns + " WHERE apns_token = ?", [.text(apnsToken)], RecordRows.device)
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
