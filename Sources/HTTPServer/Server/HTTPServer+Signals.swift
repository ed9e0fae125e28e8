import CSystem
import Glibc

extension HTTPServer {
    /// For `issue-gateway serve`: starts the server (if not started), blocks until SIGTERM or
    /// SIGINT, then shuts down gracefully and returns once everything has stopped, so the caller can
    /// exit 0. `onStart` gets the bound port.
    ///
    /// The handlers are installed with sigaction before the server starts (no window in which a
    /// signal is lost) and write to a pipe this call reads: nothing runs in signal context but a
    /// write. After the call returns the signals stay caught, and are dropped while nobody waits.
    public func runUntilSignalled(signals: [Int32] = [SIGTERM, SIGINT], onStart: (Int) -> Void = { _ in }) throws {
        var readFD: Int32 = -1
        let slot = csystem_signal_waiter_open(&readFD)
        guard slot >= 0 else { throw SystemError("signal pipe") }
        defer { csystem_signal_waiter_close(slot) }
        for number in signals where csystem_signal_catch(number) != 0 {
            throw SystemError("sigaction(\(number))")
        }
        let port = try start()
        onStart(port)
        var byte: UInt8 = 0
        while true {
            let count = read(readFD, &byte, 1)
            if count == 1 && signals.contains(Int32(byte)) { break }
            if count == 0 || (count < 0 && csystem_errno() != EINTR) { break }
        }
        shutdown()
        waitUntilStopped()
    }
}
