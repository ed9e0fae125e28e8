import CCurl
import Foundation
import GatewayCore
import Synchronization

/// One request for `CurlHTTP2Client`: a POST with its header lines (`name: value`) and body.
package struct HTTP2Request: Sendable {
    package var url: String
    package var headers: [String]
    package var body: [UInt8]
}

/// What came back: the status (0 when no answer came), the body (capped), the HTTP version the
/// connection spoke (20 for HTTP/2, as libcurl's `CURL_HTTP_VERSION_2_0` says 3; kept as libcurl
/// reports it), and libcurl's error when the transfer failed.
package struct HTTP2Response: Sendable, Equatable {
    package var status: Int
    package var body: [UInt8]
    package var httpVersion: Int
    package var transportError: String?
}

/// POSTs over HTTP/2 with libcurl's multi interface: one connection per host, requests multiplexed
/// on it as streams (`CURLPIPE_MULTIPLEX`, `CURLOPT_PIPEWAIT`), at most `maxConcurrent` in flight,
/// and the connection kept between calls (APNs asks providers to keep theirs open). https URLs
/// negotiate h2 by ALPN; http URLs speak h2 with prior knowledge. Blocking by contract: one caller
/// at a time (a lock orders them), on a service thread, never an event loop.
///
/// Why libcurl directly and not FoundationNetworking's URLSession (which is libcurl too): on Linux
/// URLSession cannot be told which CA to trust (no server-trust challenge; the CA file setting
/// exists only on Android) and exposes neither the negotiated HTTP version nor multiplexing
/// limits. Checked with this toolchain: URLSession against an h2 server with a self-signed
/// certificate fails with "SSL certificate problem" whatever `SSL_CERT_FILE` says.
package final class CurlHTTP2Client: @unchecked Sendable {
    package struct Settings: Sendable {
        package var caFile: String?
        package var maxConcurrent = 100
        /// One request's whole time (APNs answers in well under a second). Kept short so that a
        /// page's worst case, every attempt timing out, stays within the push job's lease
        /// (`PushFanOut.Settings.lease`).
        package var timeout: Duration = .seconds(10)
        /// Answers longer than this are cut (APNs answers a small JSON reason).
        package var maximumResponseBytes = 16 << 10
    }

    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    private let settings: Settings
    /// One batch at a time on the multi handle.
    private let lock = Mutex(())
    private let multi: UnsafeMutableRawPointer?

    package init(settings: Settings) {
        self.settings = settings
        _ = Self.globalInit
        multi = curl_multi_init()
        if let multi {
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 1)
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, settings.maxConcurrent)
        }
    }

    deinit { if let multi { curl_multi_cleanup(multi) } }

    /// Every request, answered in order. Once `stopping` says so (it is asked about every 100 ms),
    /// transfers still running are abandoned and answered as failed.
    package func perform(_ requests: [HTTP2Request], stopping: () -> Bool = { false }) -> [HTTP2Response] {
        lock.withLock { _ in performLocked(requests, stopping) }
    }

    private func performLocked(_ requests: [HTTP2Request], _ stopping: () -> Bool) -> [HTTP2Response] {
        let failed = HTTP2Response(status: 0, body: [], httpVersion: 0, transportError: "libcurl could not start")
        guard let multi else { return requests.map { _ in failed } }
        var responses = requests.map { _ in failed }
        var active: [UnsafeMutableRawPointer: Transfer] = [:]
        var next = 0
        while next < requests.count || !active.isEmpty {
            if stopping() {
                for (easy, transfer) in active {
                    curl_multi_remove_handle(multi, easy)
                    transfer.finish()
                }
                return responses
            }
            while active.count < settings.maxConcurrent, next < requests.count {
                let transfer = Transfer(index: next, limit: settings.maximumResponseBytes)
                if let easy = transfer.start(requests[next], settings), curl_multi_add_handle(multi, easy) == CURLM_OK {
                    active[easy] = transfer
                } else {
                    transfer.finish()
                }
                next += 1
            }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                      let transfer = active.removeValue(forKey: easy) else { continue }
                responses[transfer.index] = transfer.response(result: message.pointee.data.result)
                curl_multi_remove_handle(multi, easy)
                transfer.finish()
            }
            if !active.isEmpty { _ = curl_multi_poll(multi, nil, 0, 100, nil) }
        }
        return responses
    }
}

/// One transfer's easy handle, header list and answer; libcurl writes into it through `userdata`.
private final class Transfer {
    let index: Int
    private let limit: Int
    private var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private(set) var body: [UInt8] = []

    init(index: Int, limit: Int) { self.index = index; self.limit = limit }

    func start(_ request: HTTP2Request, _ settings: CurlHTTP2Client.Settings) -> UnsafeMutableRawPointer? {
        guard let easy = curl_easy_init() else { return nil }
        self.easy = easy
        for line in request.headers { headerList = curl_slist_append(headerList, line) }
        let secure = request.url.lowercased().hasPrefix("https:")
        var ok = ccurl_easy_setopt_string(easy, CURLOPT_URL, request.url) == CURLE_OK
        ok = ok && ccurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION,
                                          Int(secure ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)) == CURLE_OK
        ok = ok && ccurl_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1) == CURLE_OK
        ok = ok && ccurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1) == CURLE_OK
        ok = ok && ccurl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(settings.timeout.milliseconds)) == CURLE_OK
        ok = ok && ccurl_easy_setopt_long(easy, CURLOPT_PROTOCOLS, Int(CURLPROTO_HTTP | CURLPROTO_HTTPS)) == CURLE_OK
        ok = ok && ccurl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)) == CURLE_OK
        ok = ok && ccurl_easy_setopt_long(easy, CURLOPT_POSTFIELDSIZE, request.body.count) == CURLE_OK
        ok = ok && request.body.withUnsafeBufferPointer { buffer in
            ccurl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: buffer.baseAddress)) == CURLE_OK
        }
        ok = ok && ccurl_easy_setopt_write(easy, { data, size, count, userdata in
            guard let data, let userdata else { return 0 }
            Unmanaged<Transfer>.fromOpaque(userdata).takeUnretainedValue().append(data, size * count)
            return size * count
        }) == CURLE_OK
        ok = ok && ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(self).toOpaque()) == CURLE_OK
        if let caFile = settings.caFile { ok = ok && ccurl_easy_setopt_string(easy, CURLOPT_CAINFO, caFile) == CURLE_OK }
        return ok ? easy : nil
    }

    private func append(_ data: UnsafeMutablePointer<CChar>, _ count: Int) {
        let room = max(0, limit - body.count)
        data.withMemoryRebound(to: UInt8.self, capacity: count) { body.append(contentsOf: UnsafeBufferPointer(start: $0, count: min(room, count))) }
    }

    func response(result: CURLcode) -> HTTP2Response {
        guard let easy else { return HTTP2Response(status: 0, body: [], httpVersion: 0, transportError: "no handle") }
        var status = 0, version = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        let error = result == CURLE_OK ? nil : String(cString: curl_easy_strerror(result))
        return HTTP2Response(status: result == CURLE_OK ? status : 0, body: body, httpVersion: version, transportError: error)
    }

    func finish() {
        if let easy { curl_easy_cleanup(easy) }
        easy = nil
        curl_slist_free_all(headerList)
        headerList = nil
    }
}
