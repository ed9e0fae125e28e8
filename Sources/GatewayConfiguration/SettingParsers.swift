import DownloadTokens
import EdgeFormats
import Entitle
import Foundation
import GatewayCore
import HTTPServer
import IssueCatalog
import OpenIDConnect
import PostgresStore

/// Parsers for one setting's text each. They throw a message; the loader adds the setting's name.
package enum SettingParsers {
    package struct Invalid: Error { var message: String }

    package static func listen(_ text: String) throws(Invalid) -> ListenAddress {
        do { return try ListenAddress(parsing: text) } catch { throw Invalid(message: error.message) }
    }

    package static func integer(_ text: String, in range: ClosedRange<Int>) throws(Invalid) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw Invalid(message: "\(quoted(text)) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A number of bytes, optionally with a binary suffix: `268435456`, `512KiB`, `256MiB`, `1GiB`.
    package static func byteSize(_ text: String, in range: ClosedRange<Int>) throws(Invalid) -> Int {
        let suffixes: [(String, Int)] = [("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30)]
        let (digits, unit) = suffixes.first { text.hasSuffix($0.0) }.map { (text.dropLast($0.0.count), $0.1) } ?? (text[...], 1)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let count = Int(digits),
              case let (bytes, overflow) = count.multipliedReportingOverflow(by: unit), !overflow, range.contains(bytes) else {
            throw Invalid(message: "\(quoted(text)) must be a size from 1MiB to 1024GiB: bytes, or a number with KiB, MiB or GiB")
        }
        return bytes
    }

    /// Play package names, comma-separated (`com.example.magazine`): Java package syntax, letters,
    /// digits, `_` and `.`.
    package static func packageNames(_ text: String) throws(Invalid) -> [String] {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for name in names where name.isEmpty || !name.contains(".")
            || !name.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2E || $0 == 0x5F }) {
            throw Invalid(message: "\(quoted(name)) is not a package name such as com.example.magazine")
        }
        return names
    }

    /// `projects/P/subscriptions/S` (Pub/Sub's resource name).
    package static func pubSubSubscription(_ text: String) throws(Invalid) -> String {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "projects", parts[2] == "subscriptions", !parts[1].isEmpty, !parts[3].isEmpty,
              text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x3F && $0 != 0x23 }) else {
            throw Invalid(message: "\(quoted(text)) must be projects/PROJECT/subscriptions/SUBSCRIPTION")
        }
        return text
    }

    package static func bool(_ text: String) throws(Invalid) -> Bool {
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw Invalid(message: "\(quoted(text)) must be true or false")
        }
    }

    package static func nonEmpty(_ text: String) throws(Invalid) -> String {
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            throw Invalid(message: "must be a non-empty value without control characters")
        }
        return text
    }

    /// A shared secret: at least `minimumBytes`, so that it cannot be guessed.
    package static func secret(_ text: String, minimumBytes: Int) throws(Invalid) -> String {
        let value = try nonEmpty(text)
        guard value.utf8.count >= minimumBytes else { throw Invalid(message: "must be at least \(minimumBytes) bytes") }
        return value
    }

    /// An absolute http(s) URL; a trailing `/` is dropped so paths can be appended.
    package static func httpURL(_ text: String) throws(Invalid) -> String {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
              url.query == nil, url.fragment == nil else {
            throw Invalid(message: "\(quoted(text)) must be an http:// or https:// URL without query or fragment")
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// The CDN base (tokens.md, Configuration): an http(s) origin, scheme, host and optional
    /// port with no path; a trailing `/` is dropped.
    package static func origin(_ text: String) throws(Invalid) -> String {
        guard let origin = EdgeOrigin(text) else {
            throw Invalid(message: "\(quoted(text)) must be an http:// or https:// origin (scheme, host, optional port) with no path")
        }
        return origin.text
    }

    /// One of an enumeration's raw values, which the message lists.
    package static func choice<Choice: RawRepresentable & CaseIterable>(_ text: String) throws(Invalid) -> Choice
        where Choice.RawValue == String {
        guard let value = Choice(rawValue: text) else {
            throw Invalid(message: "\(quoted(text)) must be one of \(Choice.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// A PostgreSQL URL (`postgresql://` or `postgres://`, libpq's URI form). The text is never
    /// echoed: it may hold a password.
    package static func postgresURL(_ text: String) throws(Invalid) -> String {
        guard PostgresStore.handles(text), text.utf8.count <= ConfigurationLimits.maxDatabaseURLBytes,
              !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7f }) else {
            throw Invalid(message: "must be a postgresql:// URL without spaces or control characters, "
                          + "at most \(ConfigurationLimits.maxDatabaseURLBytes) bytes")
        }
        return text
    }

    package static func policy(_ text: String) throws(Invalid) -> OwnershipPolicy {
        guard let policy = OwnershipPolicy(rawValue: text) else {
            throw Invalid(message: "\(quoted(text)) must be transfer or keep")
        }
        return policy
    }

    package static func appleId(_ text: String) throws(Invalid) -> Int64 {
        guard text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int64(text), value > 0 else {
            throw Invalid(message: "\(quoted(text)) must be the app's numeric Apple ID")
        }
        return value
    }

    /// `:`-separated certificate files; each must exist (checked now, so a typo fails at start).
    package static func certificatePaths(_ text: String) throws(Invalid) -> [String] {
        let paths = text.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        guard !paths.isEmpty else { throw Invalid(message: "must name at least one certificate file") }
        for path in paths where !FileManager.default.isReadableFile(atPath: path) {
            throw Invalid(message: "cannot read certificate file \(path)")
        }
        return paths
    }

    /// readers.md, Configuration: the path of the identity providers' JSON file, read and checked
    /// now, so that a provider half configured stops the gateway from starting.
    package static func identityProviders(_ path: String) throws(Invalid) -> [IdentityProvider] {
        guard let data = FileManager.default.contents(atPath: path) else { throw Invalid(message: "cannot read \(path)") }
        do { return try IdentityProvidersFile.decode(Array(data)) } catch { throw Invalid(message: "\(path): \(error.description)") }
    }

    /// `kid:base64url-secret,kid2:…` (http-api.md, tokens.md); the first signs. Parsed by the
    /// token module itself so the gateway and any Swift edge read the same format.
    package static func tokenKeys(_ text: String) throws(Invalid) -> TokenKeySet {
        do { return try TokenKeySet(parsing: text) } catch { throw Invalid(message: error.description) }
    }

    package static func quoted(_ text: String) -> String { "\"\(text.prefix(80))\"" }
}
