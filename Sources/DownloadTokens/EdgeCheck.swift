import IssueCatalog
import Wire

/// The one decision every edge makes, whoever asks: the `GET /v1/edge/verify` route, a Swift
/// edge, and `issue-gateway token verify TOKEN --path P`. Pure: headers, keys and now in,
/// decision out.
public enum EdgeCheck {
    /// - Parameters:
    ///   - authorization: the `Authorization` header value, if any.
    ///   - originalURI: `X-Original-URI`, the path and query of the request being decided.
    ///   - originalMethod: `X-Original-Method`, if sent (absent means GET, see
    ///     `VerifiedDownloadToken.authorize`).
    ///
    /// The token is the `Authorization: Bearer` credential (scheme case-insensitive, RFC 9110
    /// §11.1), else the single `token` parameter of the URI's query, percent-decoded once. A
    /// `Bearer` header wins over the query; an `Authorization` of another scheme is not ours
    /// and is passed over. Two `token` parameters are refused rather than guessed between.
    public static func decide(authorization: String?, originalURI: String?, originalMethod: String?,
                              keys: TokenKeySet, now: Instant, policy: TokenPolicy = .standard,
                              memo: (any VerifiedTokenMemo)? = nil) -> EdgeDecision {
        do throws(TokenFailure) {
            if let originalURI, originalURI.utf8.count > policy.maxRequestTargetBytes { throw .requestTooLong }
            var token = try bearerToken(authorization)
            if token == nil { token = try queryToken(originalURI) }
            guard let token else { throw .missingToken }
            let verified = try TokenVerifier(keys: keys, policy: policy).verify(token, now: now, memo: memo)
            guard let originalURI else { throw .pathMissing }
            try verified.authorize(requestTarget: originalURI, method: originalMethod)
            return .allow(verified)
        } catch {
            return EdgeDecision(error)
        }
    }

    /// RFC 6750 §2.1: `Bearer` 1*SP token68. Read over UTF-8 bytes: every edge request passes here.
    /// The credential of an `Authorization: Bearer` value; nil for another scheme or none, and
    /// `missingToken` for a Bearer with nothing after it. Shared with the API's principals.
    public static func bearerToken(_ authorization: String?) throws(TokenFailure) -> String? {
        guard let authorization else { return nil }
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var bytes = Substring(authorization).utf8[...]
        while let first = bytes.first, isBlank(first) { bytes.removeFirst() }
        while let last = bytes.last, isBlank(last) { bytes.removeLast() }
        // The scheme is case-insensitive (RFC 9110 §11.1) and ends at a space or the end.
        let scheme = "bearer".utf8
        guard bytes.count >= scheme.count, zip(bytes, scheme).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        var credential = bytes.dropFirst(scheme.count)
        guard credential.isEmpty || credential.first == 0x20 else { return nil }
        while credential.first == 0x20 { credential.removeFirst() }
        guard !credential.isEmpty else { throw .missingToken }
        return String(Substring(credential))
    }

    static func queryToken(_ originalURI: String?) throws(TokenFailure) -> String? {
        guard let originalURI, let questionMark = originalURI.firstIndex(of: "?") else { return nil }
        var found: String?
        for parameter in originalURI[originalURI.index(after: questionMark)...].split(separator: "&") {
            let name = parameter.prefix { $0 != "=" }
            guard name == "token" else { continue }
            guard found == nil else { throw .ambiguousToken }
            let rawValue = parameter.dropFirst(name.count + 1)
            guard let decoded = PercentDecoding.decode(bytes: rawValue.utf8) else { throw .queryEncoding }
            found = String(decoding: decoded, as: UTF8.self)
        }
        if found?.isEmpty == true { throw .missingToken }
        return found
    }
}

