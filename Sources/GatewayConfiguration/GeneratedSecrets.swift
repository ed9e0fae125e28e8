import DownloadTokens
import Entitle
import Foundation
import GatewayCore
import GatewayCrypto

/// The admin key and token keys the gateway makes up on first start when the configuration gives
/// none (http-api.md, Configuration). They are kept in a file beside the database, readable by
/// the owner only, in the `--config` format, so later starts use the same ones.
public enum GeneratedSecrets {
    public static let fileName = "issue-gateway-secrets.env"

    public static func path(besideDatabase databasePath: String) -> String {
        URL(fileURLWithPath: databasePath).deletingLastPathComponent().appendingPathComponent(fileName).path
    }

    /// Fills `adminKey` and `tokenKeys` that are unset, from the file or, the first time, freshly
    /// generated. Returns the admin key when it was generated now, so the caller prints it once.
    public static func resolve(_ configuration: Configuration) throws(ConfigurationError)
        -> (configuration: Configuration, newAdminKey: String?) {
        let path = path(besideDatabase: configuration.databasePath)
        if configuration.adminKey != nil && configuration.tokenKeys != nil || FileManager.default.fileExists(atPath: path) {
            return (try withVerificationKey(try stored(configuration), path: path), nil)
        }
        var generated = Configuration()
        generated.adminKey = try randomSecret(path)
        generated.tokenKeys = try generatedKeys(path)
        generated.verificationKey = try randomSecret(path)
        try write(generated, to: path)
        var resolved = try filled(configuration, from: generated, path: path)
        if resolved.verificationKey == nil { resolved.verificationKey = generated.verificationKey }
        return (resolved, configuration.adminKey == nil ? generated.adminKey : nil)
    }

    /// The verification key (E29) from the configuration, else from the file, else made now and
    /// added to the file (files written before there was one lack it): hashes made under one key
    /// are only ever compared under the same key, so it must outlive the process.
    private static func withVerificationKey(_ configuration: Configuration, path: String) throws(ConfigurationError)
        -> Configuration {
        guard configuration.verificationKey == nil else { return configuration }
        var resolved = configuration
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        if !text.isEmpty, let key = try Configuration.load(environment: [:], configFile: (path, text)).verificationKey {
            resolved.verificationKey = key
            return resolved
        }
        let key = try randomSecret(path)
        let line = (text.isEmpty || text.hasSuffix("\n") ? "" : "\n") + "ISSUE_GATEWAY_VERIFICATION_KEY=\(key)\n"
        do {
            if !FileManager.default.fileExists(atPath: path) {
                try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(),
                                                        withIntermediateDirectories: true)
                guard FileManager.default.createFile(atPath: path, contents: Data(), attributes: [.posixPermissions: 0o600]) else {
                    throw CocoaError(.fileWriteUnknown)
                }
            }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(line.utf8))
        } catch {
            throw ConfigurationError(setting: path, message: "cannot keep the verification key: \(error.localizedDescription)")
        }
        resolved.verificationKey = key
        return resolved
    }

    /// Fills unset secrets from the file only, never creating it: for commands that only read
    /// (`token verify`). What is unset stays unset when there is no file.
    public static func stored(_ configuration: Configuration) throws(ConfigurationError) -> Configuration {
        guard configuration.adminKey == nil || configuration.tokenKeys == nil else { return configuration }
        let path = path(besideDatabase: configuration.databasePath)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return configuration }
        return try filled(configuration, from: try Configuration.load(environment: [:], configFile: (path, text)), path: path)
    }

    private static func filled(_ configuration: Configuration, from stored: Configuration, path: String)
        throws(ConfigurationError) -> Configuration {
        guard let adminKey = stored.adminKey, let tokenKeys = stored.tokenKeys else {
            throw ConfigurationError(setting: path, message: "must set ISSUE_GATEWAY_ADMIN_KEY and ISSUE_GATEWAY_TOKEN_KEYS")
        }
        var resolved = configuration
        if resolved.adminKey == nil { resolved.adminKey = adminKey }
        if resolved.tokenKeys == nil { resolved.tokenKeys = tokenKeys }
        return resolved
    }

    private static func write(_ secrets: Configuration, to path: String) throws(ConfigurationError) {
        let keys = secrets.tokenKeys?.serialized ?? ""
        let text = """
            # Generated by issue-gateway on first start. Keep it secret; delete it to generate new keys.
            ISSUE_GATEWAY_ADMIN_KEY=\(secrets.adminKey ?? "")
            ISSUE_GATEWAY_TOKEN_KEYS=\(keys)
            ISSUE_GATEWAY_VERIFICATION_KEY=\(secrets.verificationKey ?? "")

            """
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(fileName).\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw ConfigurationError(setting: path, message: "cannot write generated secrets: \(error.localizedDescription)")
        }
    }

    /// OpenSSL's CSPRNG through the token module; never a hand-rolled one.
    private static func randomSecret(_ path: String) throws(ConfigurationError) -> String {
        do { return try SecretGenerator.generate(using: SystemRandom()) } catch {
            throw ConfigurationError(setting: path, message: "the system random generator failed")
        }
    }

    private static func generatedKeys(_ path: String) throws(ConfigurationError) -> TokenKeySet {
        do { return try TokenKeySet.generate(using: SystemRandom()) } catch {
            throw ConfigurationError(setting: path, message: "the system random generator failed")
        }
    }
}
