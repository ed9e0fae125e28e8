import Wire

/// E29: a publication's lists are applied one at a time, in every process on the store. A whole
/// list ends every subscriber it did not stamp, so two lists of one publication applied at once
/// would each end the other's subscribers (and a change list's rows stamped meanwhile). The lock
/// is a row (`subscriber_list_locks`), taken and renewed in write units of work and so serialised
/// by each backend's writes; a hold runs out, so a process that dies holding it lets it go.
extension GatewayStore {
    /// Takes the lock of `publicationId` for list `listId`; false while another list holds it.
    public func takeSubscriberListLock(publicationId: String, listId: String, _ lease: SubscriberListLease) throws(StoreError) -> Bool {
        try write { tx throws(StoreError) in
            try tx.holdSubscriberListLock(publicationId: publicationId, listId: listId, now: lease.now, until: lease.until)
        }
    }

    /// Lets the lock go if list `listId` holds it.
    public func releaseSubscriberListLock(publicationId: String, listId: String) throws(StoreError) {
        try write { tx throws(StoreError) in try tx.releaseSubscriberListLock(publicationId: publicationId, listId: listId) }
    }

    /// Renews `list`'s hold inside a unit of work that applies part of it; false when another
    /// list took the lock over (then that unit of work applies nothing).
    static func renew(_ lease: SubscriberListLease?, of list: SubscriberImport, _ tx: any WriteTransaction) throws(StoreError) -> Bool {
        guard let lease else { return true }
        return try tx.holdSubscriberListLock(publicationId: list.publicationId, listId: list.listId, now: lease.now, until: lease.until)
    }
}
