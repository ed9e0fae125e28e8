/// Asset paths as they stand in a download URL (tokens.md, Rules common to every format).
public enum EdgePath {
    /// Each byte of the UTF-8 path other than `A-Z a-z 0-9 - . _ ~ /` as `%XX`, upper-case hex
    /// (RFC 3986 §2.1, §2.3): the same spelling in the URL and in what a CDN signs over it.
    public static func encode(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%")); out.append(hex[Int(byte >> 4)]); out.append(hex[Int(byte & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    /// The longest directory every path lies in, ending in `/` (`/` at least): the path of an
    /// issue's cookies and of CloudFront's folder policy. Compared by whole segments, so
    /// `/a/bc/x` and `/a/b/y` share `/a/`, not `/a/b`.
    public static func commonDirectory(_ paths: [String]) -> String {
        guard let first = paths.first else { return "/" }
        var common = directorySegments(first)
        for path in paths.dropFirst() {
            let segments = directorySegments(path)
            var shared = 0
            while shared < common.count, shared < segments.count, common[shared] == segments[shared] { shared += 1 }
            common.removeLast(common.count - shared)
        }
        return "/" + common.map { $0 + "/" }.joined()
    }

    /// The segments of the directory holding `path` (its last segment, the file, left out).
    private static func directorySegments(_ path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "/a/b/f" splits to ["", "a", "b", "f"]: drop the empty head and the file.
        return Array(segments.dropFirst().dropLast())
    }
}
