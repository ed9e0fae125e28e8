import CSystem
import Foundation
import Glibc

/// The folder spooled bodies go to (`HTTPServerConfiguration.bodySpoolDirectory`), opened once when
/// a server with spooling routes starts: made mode 0700 when missing, opened without following a
/// symbolic link, and refused unless what was opened is a directory of this user that nobody else
/// may read, write or enter. The server keeps that descriptor and makes every body file relative
/// to it, nameless (`O_TMPFILE`), so the folder's name is never looked up again: a folder renamed or
/// swapped for a link after the start cannot redirect a body.
final class SpoolDirectory: Sendable {
    struct Unsafe: Error, CustomStringConvertible {
        let description: String
    }

    let path: String
    /// The opened folder (close-on-exec), closed with this value.
    let fd: Int32

    init(_ path: String) throws(Unsafe) {
        var fd = csystem_open_directory(path)
        if fd < 0 && csystem_errno() == ENOENT {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw Unsafe(description: "cannot create the spool directory \(path)")
            }
            fd = csystem_open_directory(path)
        }
        guard fd >= 0 else {
            let error = csystem_errno()
            if error == ELOOP || error == ENOTDIR {
                throw Unsafe(description: "the spool directory \(path) is not a directory (or is a symbolic link)")
            }
            throw Unsafe(description: "\(path): errno \(error)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = csystem_errno()
            close(fd)
            throw Unsafe(description: "\(path): errno \(error)")
        }
        guard info.st_uid == geteuid() else {
            close(fd)
            throw Unsafe(description: "the spool directory \(path) belongs to another user")
        }
        guard info.st_mode & 0o077 == 0 else {
            close(fd)
            throw Unsafe(description: "the spool directory \(path) is open to other users (mode must be 0700)")
        }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    /// A new nameless file (0600, close-on-exec) in the folder; -1 with errno when none can be made.
    func newFile() -> Int32 { csystem_nameless_file(fd) }

    /// Where a server's spooled bodies go unless configured: a folder of this user's in the
    /// system's temporary directory.
    static var standard: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("issue-gateway-spool-\(geteuid())").path
    }
}
