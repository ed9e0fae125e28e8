import CCrypto
import Foundation

/// The roots V2 signatures must chain to (`ISSUE_GATEWAY_APPLE_ROOT_CERTS`): Apple Root CA - G3 in
/// production, a test CA in tests and in the simulator. Nothing else is ever trusted.
public struct AppleRootCertificates: Sendable {
    public let certificates: [X509Certificate]

    /// Largest certificate file read; a root is well under 2 KiB, a PEM bundle of a few a little more.
    public static let maximumFileSize = 256 * 1024

    public enum LoadError: Error, Equatable, Sendable {
        case unreadable(path: String)
        case tooLarge(path: String)
        case noCertificate(path: String)
    }

    public init(certificates: [X509Certificate]) { self.certificates = certificates }

    /// Reads the files `ISSUE_GATEWAY_APPLE_ROOT_CERTS` names (the configuration splits the list);
    /// none yields no roots (V2 refused, http-api.md Configuration).
    public static func load(paths: [String]) throws(LoadError) -> AppleRootCertificates {
        var certificates: [X509Certificate] = []
        for path in paths { certificates += try load(path: path) }
        return AppleRootCertificates(certificates: certificates)
    }

    /// One file: DER (one certificate) or PEM (one or more `CERTIFICATE` blocks).
    public static func load(path: String) throws(LoadError) -> [X509Certificate] {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber else { throw .unreadable(path: path) }
        guard size.intValue <= maximumFileSize else { throw .tooLarge(path: path) }
        guard let contents = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        let certificates = parse(contents)
        guard !certificates.isEmpty else { throw .noCertificate(path: path) }
        return certificates
    }

    /// DER when the bytes are one certificate, otherwise every PEM certificate block in them.
    public static func parse(_ contents: Data) -> [X509Certificate] {
        if let der = X509Certificate(der: contents) { return [der] }
        return pemCertificates(in: contents)
    }

    private static func pemCertificates(in contents: Data) -> [X509Certificate] {
        guard let bio = contents.withUnsafeBytes({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else { return [] }
        defer { BIO_free(bio); OpenSSLErrorQueue.clear() }
        var found: [X509Certificate] = []
        // The BIO copies nothing: `contents` must outlive it, which the defer above guarantees.
        while let cert = PEM_read_bio_X509(bio, nil, nil, nil) { found.append(X509Certificate(owning: cert)) }
        return found
    }
}
