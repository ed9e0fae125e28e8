import Entitle
import Wire

/// E29: one row of a publication's print subscriber list, as stored: identified by
/// (publication, customer number), the verification value only as a keyed hash, and the last
/// list that gave it.
public struct PrintSubscriber: Sendable, Equatable {
    public var publicationId: String
    public var customerNumber: String
    /// Lower-case hex of the keyed hash of the normalised verification value; never the value.
    public var verificationHash: String
    public var terms: PrintSubscriberTerms
    public var listId: String
    public var updatedAt: Instant

    public init(publicationId: String, customerNumber: String, verificationHash: String, terms: PrintSubscriberTerms,
                listId: String, updatedAt: Instant) {
        self.publicationId = publicationId; self.customerNumber = customerNumber
        self.verificationHash = verificationHash; self.terms = terms; self.listId = listId; self.updatedAt = updatedAt
    }

    /// E29: the claimed grant's `externalId`.
    public var grantExternalId: String { Self.grantExternalId(publicationId: publicationId, customerNumber: customerNumber) }

    public static func grantExternalId(publicationId: String, customerNumber: String) -> String {
        publicationId + ":" + customerNumber
    }

    /// E29: the claimed grant's `source`.
    public static let grantSource = "print"
}

/// One list row as a publisher sent it, its verification already hashed.
public struct ListedSubscriber: Sendable, Equatable {
    public var customerNumber: String
    public var verificationHash: String
    public var terms: PrintSubscriberTerms
    /// The row's physical line in the body (from 1), for rejections.
    public var line: Int

    public init(customerNumber: String, verificationHash: String, terms: PrintSubscriberTerms, line: Int) {
        self.customerNumber = customerNumber; self.verificationHash = verificationHash; self.terms = terms; self.line = line
    }
}
