import CSystem
import Glibc

/// A loopback port the kernel just handed out and took back: free unless another process grabs it
/// first. For peers that must know a port before they start (nginx, a gateway a simulator pushes to).
public enum FreePort {
    public struct Unavailable: Error {}

    public static func loopback() throws -> Int {
        let fd = csystem_listen_tcp("127.0.0.1", 0, 1, 0)
        guard fd >= 0 else { throw Unavailable() }
        defer { close(fd) }
        return Int(csystem_local_port(fd))
    }
}
