/// Print subscribers (E29): a publisher's lists and a reader's claims, both over the keyed hash
/// of verification values.
package struct PrintServices: Sendable {
    package let lists: SubscriberLists
    package let claims: PrintClaims
}
