import IssueCatalog
import Wire

/// The one sentence of an explanation a support agent pastes to a reader (E20), in plain English,
/// dates in UTC ("20 April 2012"): the reason first, then the dates that show it.
public enum SupportSentence {
    static func summary(_ e: IssueExplanation) -> String {
        let issue = "the \(e.issue.title) issue"
        let published = day(e.issue.publishedAt)
        let reasons = e.reasons
        if reasons.contains(.free) { return "\(capitalised(issue)) is free for every reader." }
        if reasons.contains(.purchased) { return "You bought \(issue); it is yours for good." }
        if reasons.contains(.activePeriod), let p = e.periodContaining {
            return "Your subscription was active when \(issue) came out on \(published) (from \(day(p.start))\(until(p.end)))."
        }
        if reasons.contains(.gracePeriod), let p = e.periodContaining {
            return "\(capitalised(issue)) came out on \(published), while your subscription was in its billing grace period\(until(p.end)); it stays yours."
        }
        if reasons.contains(.unlockedAtStart), e.transaction == nil, let grant = e.grant {
            return "Your publisher gave you access from \(day(grant.start)); \(issue), the latest one out that day (\(published)), comes with it."
        }
        if reasons.contains(.unlockedAtStart), let p = e.periodAfter ?? e.periodContaining {
            return "Your subscription started on \(day(p.start)); \(issue), the latest one out that day (\(published)), comes with it."
        }
        if reasons.contains(.institution), !reasons.contains(.granted) {
            return "The institution whose network you are on gives you access to \(issue), which came out on \(published)."
        }
        if reasons.contains(.granted) { return "Your publisher gave you access to \(issue), which came out on \(published)." }
        if reasons == [.scheduled] { return "\(capitalised(issue)) comes out on \(published); it cannot be downloaded before then." }
        if reasons == [.retracted] { return "\(capitalised(issue)) was withdrawn by the publisher and cannot be downloaded." }
        if reasons == [.refunded] {
            let when = e.refunded?.revocationDate.map { " on \(day($0))" } ?? ""
            if let refunded = e.refunded, let kind = refunded.revocationKind, kind.isCut {
                // E24: a cut keeps what came out before it.
                return "Your subscription was refunded (\(refundDescription(kind, refunded.revocationPercentage)))\(when) and cut then; \(issue) came out on \(published), after the cut."
            }
            return "The purchase that covered \(issue) (\(published)) was refunded\(when), so it is no longer included."
        }
        if reasons == [.noPurchase] { return "This account has no subscription that includes \(issue) (\(published))." }
        // notSubscribedWhenPublished: between, before or after the account's periods.
        switch (e.periodBefore, e.periodAfter) {
        case let (before?, after?):
            return "Your subscription ended on \(day(before.end)) and restarted on \(day(after.start)); \(issue) came out on \(published), between them."
        case let (before?, nil):
            return "Your subscription ended on \(day(before.end)); \(issue) came out on \(published), after it."
        case let (nil, after?):
            return "Your subscription started on \(day(after.start)); \(issue) came out on \(published), before it; only the issue current on the day a subscription starts comes with it."
        case (nil, nil):
            return "This account had no subscription when \(issue) came out on \(published)."
        }
    }

    /// E24: "prorated, 58 %": how a refund was made and, where the store said, the share returned.
    public static func refundDescription(_ kind: RevocationKind, _ percentage: Int?) -> String {
        let how: String
        switch kind {
        case .void: how = "in full"
        case .proratedRefund: how = "prorated"
        case .revokedWithRefund: how = "revoked by the store"
        case .familyRevoke: how = "family sharing stopped"
        case .canceledByReader: how = "canceled by the reader"
        case .canceledOther: how = "canceled"
        }
        return percentage.map { "\(how), \(percentText($0))" } ?? how
    }

    /// Thousandths of a percent as a percentage: 58000 is "58 %", 58500 is "58.5 %".
    public static func percentText(_ thousandths: Int) -> String {
        let whole = thousandths / 1000, rest = abs(thousandths % 1000)
        guard rest != 0 else { return "\(whole) %" }
        var digits = String(rest + 1000).dropFirst()  // three digits, leading zeros kept
        while digits.last == "0" { digits = digits.dropLast() }
        return "\(whole).\(digits) %"
    }

    private static func until(_ end: Instant) -> String {
        end == .distantFuture ? "" : " until \(day(end))"
    }

    /// English month names, January first (also the timeline picture's axis).
    public static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                                 "September", "October", "November", "December"]

    /// "1 May 2012", from the instant's RFC 3339 form in UTC.
    public static func day(_ t: Instant) -> String {
        let text = t.rfc3339  // yyyy-mm-ddThh:mm:ss.sssZ
        let parts = text.prefix(10).split(separator: "-")
        guard parts.count == 3, let month = Int(parts[1]), let dayOfMonth = Int(parts[2]), (1...12).contains(month) else {
            return text
        }
        return "\(dayOfMonth) \(months[month - 1]) \(parts[0])"
    }

    private static func capitalised(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}
