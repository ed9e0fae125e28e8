import GatewayStore
import Wire

/// Reader devices for APNs, by token and by account (read with `RecordRows.device`).
extension PostgresReading {
    func devices(ofAccount accountId: String) throws(StoreError) -> [Device] {
        try connection.query(RecordRows.deviceColumns + " WHERE account_id = $1 ORDER BY apns_token", [.text(accountId)],
                             RecordRows.device)
    }

    func device(_ apnsToken: String) throws(StoreError) -> Device? {
        try connection.queryFirst(RecordRows.deviceColumns + " WHERE apns_token = $1", [.text(apnsToken)], RecordRows.device)
    }
}

extension PostgresWriteTransaction {
    /// A token held by another account moves to this one (one install, one reader).
    func save(_ device: Device) throws(StoreError) {
        try connection.run("""
            INSERT INTO devices (apns_token, account_id, environment, platform, registered_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (apns_token) DO UPDATE SET account_id = excluded.account_id, environment = excluded.environment,
                platform = excluded.platform, registered_at = excluded.registered_at
            """, [.text(device.apnsToken), .text(device.accountId), .text(device.environment.rawValue),
                  .text(device.platform), .instant(device.registeredAt)])
    }

    func deleteDevice(_ apnsToken: String, ofAccount accountId: String?) throws(StoreError) -> Bool {
        if let accountId {
            return try connection.run("DELETE FROM devices WHERE apns_token = $1 AND account_id = $2",
                                      [.text(apnsToken), .text(accountId)]) > 0
        }
        return try connection.run("DELETE FROM devices WHERE apns_token = $1", [.text(apnsToken)]) > 0
    }
}
