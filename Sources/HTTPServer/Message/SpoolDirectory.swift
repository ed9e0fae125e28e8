import Foundation
import Glibc

/// The folder spooled bodies go to (`HTTPServerConfiguration.bodySpoolDirectory`), checked when a
/// server with spooling routes starts: made mode 0700 when missing, and refused unless it is a
/// real directory (not a symbolic link) of this user that nobody else may read, write or enter.
/// Files in it are 0600 (`mkstemp`) and unlinked as soon as made, so even their names are
/// another user's business for a moment only.
enum SpoolDirectory {
    struct Unsafe: Error, CustomStringConvertible {
        let description: String
    }

    static func prepare(_ path: String) throws(Unsafe) {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw Unsafe(description: "\(path): errno \(errno)") }
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw Unsafe(description: "cannot create the spool directory \(path)")
            }
            guard lstat(path, &info) == 0 else { throw Unsafe(description: "\(path): errno \(errno)") }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Unsafe(description: "the spool directory \(path) is not a directory (or is a symbolic link)")
        }
        guard info.st_uid == geteuid() else {
            throw Unsafe(description: "the spool directory \(path) belongs to another user")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw Unsafe(description: "the spool directory \(path) is open to other users (mode must be 0700)")
        }
    }

    /// Where a server's spooled bodies go unless configured: a folder of this user's in the
    /// system's temporary directory.
    static var standard: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("issue-gateway-spool-\(geteuid())").path
    }
}
