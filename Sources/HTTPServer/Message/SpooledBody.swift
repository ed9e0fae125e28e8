import Glibc

/// A request body kept in a temporary file instead of memory, for routes that take bodies larger
/// than the server's buffer budget (a publisher's list of a million subscribers): the event loop
/// appends what arrives (a local file write, which the page cache absorbs, rather than holding the
/// bytes), and the handler reads it back in pieces. The file is unlinked as soon as it is made,
/// so it vanishes with its descriptor however the process ends.
public final class SpooledBody: @unchecked Sendable {
    private let fd: Int32
    /// Bytes written; appends happen on the event loop before the handler sees the body, reads
    /// after, so no two threads touch it at once.
    public private(set) var count = 0

    public struct Failure: Error, Sendable {
        public let message: String
    }

    /// A new, empty, already unlinked file in `directory`.
    public init(directory: String) throws(Failure) {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
            + Array("issue-gateway-body-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(message: "cannot make a body file in \(directory): errno \(errno)") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends all of `bytes`.
    public func append(_ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "writing the body file failed: errno \(errno)")
            }
            offset += written
        }
        count += bytes.count
    }

    /// Hands the body to `take` in pieces of at most `pieceBytes`, from the start.
    public func forEachPiece<E: Error>(pieceBytes: Int = 256 << 10,
                                       _ take: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) -> Bool {
        var buffer = [UInt8](repeating: 0, count: max(1, pieceBytes))
        var offset = 0
        while offset < count {
            let read = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, min($0.count, count - offset), off_t(offset)) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return false }
            var failure: E?
            buffer.withUnsafeBytes { all in
                do throws(E) { try take(UnsafeRawBufferPointer(rebasing: all[0..<read])) } catch { failure = error }
            }
            if let failure { throw failure }
            offset += read
        }
        return true
    }
}
