import CSystem
import Glibc

/// A failed system call, with its errno.
struct SystemError: Error, CustomStringConvertible, Sendable {
    let call: String
    let code: Int32

    init(_ call: String, code: Int32 = csystem_errno()) {
        self.call = call
        self.code = code
    }

    var description: String { "\(call): \(String(cString: strerror(code)))" }
}
