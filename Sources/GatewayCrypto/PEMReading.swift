import CCrypto

/// Hands PEM text to a libcrypto reader through a read-only memory BIO, and clears the error
/// queue after it, whatever the reader returned (a failed parse leaves errors there).
enum PEMReading {
    static func read(_ pem: String, _ reader: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
        let bytes = Array(pem.utf8)
        defer { ERR_clear_error() }
        return bytes.withUnsafeBufferPointer { buffer in
            guard buffer.count <= Int(Int32.max), let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                return nil
            }
            defer { BIO_free(bio) }
            return reader(bio)
        }
    }
}
