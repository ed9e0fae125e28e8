import CSystem
import Glibc

/// A request body kept in a temporary file instead of memory, for routes that take bodies larger
/// than the server's buffer budget (a publisher's list of a million subscribers): the event loop
/// appends what arrives, and the handler reads it back in pieces. The file (mode 0600,
/// close-on-exec) never has a name (`SpoolDirectory.newFile`), so it vanishes with its descriptor
/// however the process ends; the bytes it holds are reserved from the server's `SpoolBudget` and given back when it
/// closes.
///
/// The appends run on the event loop: each is at most one read of the socket
/// (`HTTPServerConfiguration.readBufferBytes`, 64 KiB) copied into the page cache, which returns
/// without waiting for the disk unless the kernel throttles writers whose dirty pages pass
/// `vm.dirty_ratio`; the budget bounds what all bodies together can dirty (measured in the
/// decision on spooled bodies).
public final class SpooledBody: @unchecked Sendable {
    private let fd: Int32
    private let budget: SpoolBudget?
    /// Bytes of the budget this body holds: its announced length, or what arrived.
    private var reserved = 0
    /// Bytes written; appends happen on the event loop before the handler sees the body, reads
    /// after, so no two threads touch it at once.
    public private(set) var count = 0

    public struct Failure: Error, Sendable {
        public let message: String
        /// The budget had no room for the body: the server is busy, not broken.
        public var overBudget = false
        /// The body alone would hold more than the whole budget: it can never fit.
        public var neverFits = false
    }

    /// A new, empty, nameless file in `directory`, holding `expectedBytes` of `budget` (the
    /// announced length; 0 when chunked) before any is written.
    init(directory: SpoolDirectory, budget: SpoolBudget? = nil, expectedBytes: Int = 0) throws(Failure) {
        if let budget, !budget.reserve(expectedBytes) {
            throw Failure(message: "the spool budget has no room for \(expectedBytes) bytes", overBudget: true,
                          neverFits: expectedBytes > budget.limit)
        }
        let fd = directory.newFile()
        guard fd >= 0 else {
            let error = csystem_errno()
            budget?.release(expectedBytes)
            throw Failure(message: "cannot make a body file in \(directory.path): errno \(error)")
        }
        self.fd = fd
        self.budget = budget
        reserved = budget == nil ? 0 : expectedBytes
    }

    deinit {
        close(fd)
        budget?.release(reserved)
    }

    /// Appends all of `bytes`, first reserving from the budget what the announced length did not.
    public func append(_ bytes: [UInt8]) throws(Failure) {
        if let budget, count + bytes.count > reserved {
            let more = count + bytes.count - reserved
            guard budget.reserve(more) else {
                throw Failure(message: "the spool budget has no room for \(more) more bytes", overBudget: true,
                              neverFits: count + bytes.count > budget.limit)
            }
            reserved += more
        }
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
