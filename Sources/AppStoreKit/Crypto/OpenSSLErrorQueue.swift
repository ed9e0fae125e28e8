import CCrypto

/// libcrypto reports failures through a thread-local error queue; a failure's description is
/// read (and the queue emptied) right after it, so stale entries never explain a later failure.
package enum OpenSSLErrorQueue {
    /// The queued errors as one line, or `fallback` when the queue is empty.
    package static func drain(or fallback: String) -> String {
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? fallback : messages.joined(separator: "; ")
    }

    package static func clear() { ERR_clear_error() }
}
