import CZlib
import GatewayCore

/// The gzip content coding (RFC 9110 §8.4.1.3, RFC 1952) through zlib.
package enum Gzip {
    /// zlib's own default level, its balance of size and time; compressed lists are cached
    /// (`CompressedBodies`), so most answers pay it once.
    package static let level: Int32 = 6

    /// `bytes` gzip-coded; nil only when zlib fails (out of memory), and the answer then goes
    /// out uncoded.
    package static func compress(_ bytes: [UInt8], level: Int32 = Gzip.level) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        let status: Int32 = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(output.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        out.removeLast(out.count - Int(stream.total_out))
        return out
    }

    /// The bytes a gzip member codes; nil when they are not one (clients and tests read answers
    /// back with it).
    package static func decompress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_inflate_init_gzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                out.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                if status == Z_STREAM_END { return stream.avail_in == 0 ? out : nil }
                guard status == Z_OK else { return nil }
            }
        }
    }
}
