import Foundation

/// libcrypto's `i2d_*` convention in one place: called once without a buffer for the length,
/// then with a cursor into a buffer of that length.
package enum DEREncoding {
    package static func encode(_ i2d: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> Data? {
        let length = i2d(nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d(&cursor)
        }
        return written == length ? Data(der) : nil
    }
}
