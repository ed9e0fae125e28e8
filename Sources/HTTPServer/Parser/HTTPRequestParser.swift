import Wire
/// An incremental HTTP/1.1 request parser, strict to RFC 9112.
///
/// Feed it the unconsumed bytes of a connection's buffer; it reports how many it consumed and what
/// it found. It keeps only small state between calls (which part of the message it is in and how
/// far it already searched for the end of the current line), so a request split byte by byte costs
/// no rescanning. Choices where the RFC allows several: lines must end in CRLF (a bare LF or CR is a
/// 400); obs-fold is a 400 (§5.2); identical repeated Content-Length values are accepted (§6.3 ¶5),
/// different ones are a 400; Transfer-Encoding with Content-Length is a 400 (§6.3 ¶3); trailer
/// fields are read and discarded (§7.1.2).
struct HTTPRequestParser {
    enum Event {
        case needMore
        /// The head asked for `100 Continue`; call `parse` again to read the body.
        case continueExpected
        case request(HTTPRequestHead, body: [UInt8])
        case failure(HTTPParseError)
    }

    /// How far the current request has come, for the loop's timeouts.
    enum Progress: Equatable {
        case idle
        case head
        case body
    }

    private enum Phase {
        case requestLine
        case headerLines
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailerLines
    }

    let limits: HTTPParserLimits
    private var phase = Phase.requestLine
    /// Bytes of the current line already searched for LF.
    private var scanned = 0
    private var leadingEmptyLines = 0
    private var method = ""
    private var target = ""
    private var version = HTTPVersion.http1_1
    private var headers = HTTPHeaders()
    private var headerBytes = 0
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    /// Body bytes held for the request being read (counted against the server's buffer budget).
    var bufferedBodyBytes: Int { body.count }
    /// Hands over the body bytes read so far and forgets them (a spooling route's loop moves them
    /// to its file as they come); the body's limit still counts every byte.
    mutating func takeBufferedBody() -> [UInt8] {
        let taken = body
        spooledBytes += taken.count
        body.removeAll(keepingCapacity: true)
        return taken
    }

    /// Body bytes already handed over by `takeBufferedBody`.
    private var spooledBytes = 0

    /// What the body buffer has allocated (tests: nothing reserved ahead of the bytes).
    var bodyCapacity: Int { body.capacity }
    private var bodyLimit = 0
    private var continueReported = false

    init(limits: HTTPParserLimits) {
        self.limits = limits
    }

    var progress: Progress {
        switch phase {
        case .requestLine: scanned == 0 ? .idle : .head
        case .headerLines: .head
        default: .body
        }
    }

    /// Parses from the start of `input` (the bytes not consumed by earlier calls). `bodyLimit` gives
    /// the largest body allowed for a head (routes may allow more than the default).
    mutating func parse(_ input: UnsafeBufferPointer<UInt8>,
                        bodyLimit limitFor: (HTTPRequestHead) -> Int) -> (consumed: Int, event: Event) {
        var position = 0
        while true {
            switch phase {
            case .requestLine:
                switch nextLine(input, from: position, limit: limits.maxRequestLineBytes) {
                case .incomplete(let tooLong):
                    return (position, tooLong ? .failure(.requestLineTooLong) : .needMore)
                case .invalid(let error):
                    return (position, .failure(error))
                case .line(let line, let next):
                    position = next
                    if line.isEmpty {
                        // RFC 9112 §2.2: ignore a few empty lines before the request line.
                        leadingEmptyLines += 1
                        if leadingEmptyLines > limits.maxLeadingEmptyLines {
                            return (position, .failure(.badRequest("Expected a request line.")))
                        }
                        continue
                    }
                    if let error = parseRequestLine(line) { return (position, .failure(error)) }
                    phase = .headerLines
                }

            case .headerLines, .trailerLines:
                let remainingBudget = limits.maxHeaderBytes - headerBytes
                switch nextLine(input, from: position, limit: remainingBudget) {
                case .incomplete(let tooLong):
                    return (position, tooLong ? .failure(.headerFieldsTooLarge("The header section is too large.")) : .needMore)
                case .invalid(let error):
                    return (position, .failure(error))
                case .line(let line, let next):
                    headerBytes += next - position
                    position = next
                    if headerBytes > limits.maxHeaderBytes {
                        return (position, .failure(.headerFieldsTooLarge("The header section is too large.")))
                    }
                    if !line.isEmpty {
                        if let error = parseFieldLine(line) { return (position, .failure(error)) }
                        continue
                    }
                    if case .trailerLines = phase { return (position, finishRequest()) }
                    switch completeHead(limitFor) {
                    case .failure(let error): return (position, .failure(error))
                    case .request: return (position, finishRequest())
                    case .continueExpected:
                        continueReported = true
                        return (position, .continueExpected)
                    case .needMore: continue
                    }
                }

            case .fixedBody(let remaining):
                let take = min(remaining, input.count - position)
                body.append(contentsOf: UnsafeBufferPointer(rebasing: input[position..<position + take]))
                position += take
                if take == remaining { return (position, finishRequest()) }
                phase = .fixedBody(remaining: remaining - take)
                return (position, .needMore)

            case .chunkSize:
                switch nextLine(input, from: position, limit: limits.maxChunkLineBytes) {
                case .incomplete(let tooLong):
                    return (position, tooLong ? .failure(.badRequest("A chunk-size line is too long.")) : .needMore)
                case .invalid(let error):
                    return (position, .failure(error))
                case .line(let line, let next):
                    position = next
                    guard let size = HTTPRequestParser.chunkSize(line) else {
                        return (position, .failure(.badRequest("Malformed chunk size.")))
                    }
                    if size == 0 {
                        phase = .trailerLines
                    } else if size > bodyLimit - body.count - spooledBytes {
                        return (position, .failure(.contentTooLarge(limit: bodyLimit)))
                    } else {
                        phase = .chunkData(remaining: size)
                    }
                }

            case .chunkData(let remaining):
                let take = min(remaining, input.count - position)
                body.append(contentsOf: UnsafeBufferPointer(rebasing: input[position..<position + take]))
                position += take
                if take < remaining {
                    phase = .chunkData(remaining: remaining - take)
                    return (position, .needMore)
                }
                phase = .chunkDataEnd

            case .chunkDataEnd:
                guard input.count - position >= 2 else { return (position, .needMore) }
                guard input[position] == HTTPSyntax.cr, input[position + 1] == HTTPSyntax.lf else {
                    return (position, .failure(.badRequest("Chunk data is not followed by CRLF.")))
                }
                position += 2
                phase = .chunkSize
            }
        }
    }

    private enum LineResult {
        case line(UnsafeBufferPointer<UInt8>, next: Int)
        case incomplete(tooLong: Bool)
        case invalid(HTTPParseError)
    }

    /// The line starting at `start` without its CRLF, and where the next one starts.
    private mutating func nextLine(_ input: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> LineResult {
        let available = input.count - start
        var index = start + scanned
        while index < input.count {
            if input[index] == HTTPSyntax.lf {
                scanned = 0
                // RFC 9112 §2.2: CRLF terminates lines; a bare LF is rejected here.
                guard index > start, input[index - 1] == HTTPSyntax.cr else {
                    return .invalid(.badRequest("Lines must end with CRLF."))
                }
                if index - 1 - start > limit { return .incomplete(tooLong: true) }
                return .line(UnsafeBufferPointer(rebasing: input[start..<index - 1]), next: index + 1)
            }
            index += 1
        }
        scanned = available
        // The CR of a CRLF may be the last byte; one byte of slack keeps the limit exact.
        return .incomplete(tooLong: available > limit + 1)
    }

    /// request-line = method SP request-target SP HTTP-version (RFC 9112 §3).
    private mutating func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>) -> HTTPParseError? {
        guard let firstSpace = line.firstIndex(of: HTTPSyntax.space),
              let lastSpace = line.lastIndex(of: HTTPSyntax.space), firstSpace < lastSpace else {
            return .badRequest("Malformed request line.")
        }
        let methodBytes = UnsafeBufferPointer(rebasing: line[..<firstSpace])
        let targetBytes = UnsafeBufferPointer(rebasing: line[(firstSpace + 1)..<lastSpace])
        let versionBytes = UnsafeBufferPointer(rebasing: line[(lastSpace + 1)...])
        guard HTTPSyntax.isToken(methodBytes) else { return .badRequest("Malformed method.") }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy(HTTPSyntax.isTargetCharacter) else {
            return .badRequest("Malformed request target.")
        }
        guard versionBytes.count == 8, versionBytes.starts(with: "HTTP/".utf8),
              versionBytes[6] == UInt8(ascii: "."),
              let major = HTTPSyntax.decimalDigit(versionBytes[5]),
              let minor = HTTPSyntax.decimalDigit(versionBytes[7]) else {
            return .badRequest("Malformed HTTP version.")
        }
        guard major == 1 else { return .versionNotSupported }
        version = minor == 0 ? .http1_0 : .http1_1
        method = String(decoding: methodBytes, as: UTF8.self)
        guard let normalized = HTTPRequestParser.originForm(String(decoding: targetBytes, as: UTF8.self)) else {
            return .badRequest("Unsupported request target form.")
        }
        target = normalized
        return nil
    }

    /// origin-form as is; absolute-form reduced to its path and query (RFC 9112 §3.2.2); `*` kept
    /// for OPTIONS (§3.2.4). Authority-form is only for CONNECT, which this server does not do.
    static func originForm(_ target: String) -> String? {
        if target.hasPrefix("/") { return target }
        if target == "*" { return target }
        for scheme in ["http://", "https://"] where target.lowercased().hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            let pathAndQuery = rest[slash...]
            return pathAndQuery.hasPrefix("?") ? "/" + pathAndQuery : String(pathAndQuery)
        }
        return nil
    }

    /// field-line = field-name ":" OWS field-value OWS (RFC 9112 §5).
    private mutating func parseFieldLine(_ line: UnsafeBufferPointer<UInt8>) -> HTTPParseError? {
        if line[0] == HTTPSyntax.space || line[0] == HTTPSyntax.tab {
            return .badRequest("Obsolete line folding is not accepted.")
        }
        guard let colon = line.firstIndex(of: HTTPSyntax.colon) else {
            return .badRequest("A header line has no colon.")
        }
        let name = UnsafeBufferPointer(rebasing: line[..<colon])
        guard HTTPSyntax.isToken(name) else {
            // RFC 9112 §5.1: no whitespace is allowed between the field name and the colon.
            return .badRequest("Malformed header field name.")
        }
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd, line[valueStart] == HTTPSyntax.space || line[valueStart] == HTTPSyntax.tab {
            valueStart += 1
        }
        while valueEnd > valueStart, line[valueEnd - 1] == HTTPSyntax.space || line[valueEnd - 1] == HTTPSyntax.tab {
            valueEnd -= 1
        }
        let value = UnsafeBufferPointer(rebasing: line[valueStart..<valueEnd])
        guard value.allSatisfy(HTTPSyntax.isFieldValueCharacter) else {
            return .badRequest("A header value holds a control character.")
        }
        if headers.count >= limits.maxHeaderFields {
            return .headerFieldsTooLarge("Too many header fields.")
        }
        if case .trailerLines = phase { return nil }
        headers.append(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
        return nil
    }

    private enum HeadOutcome {
        case request
        case continueExpected
        case needMore
        case failure(HTTPParseError)
    }

    /// Checks the head's framing and Host (RFC 9112 §3.2, §6) and moves to the body.
    private mutating func completeHead(_ limitFor: (HTTPRequestHead) -> Int) -> HeadOutcome {
        let hosts = headers.values("Host")
        if hosts.count > 1 || (version == .http1_1 && hosts.isEmpty) {
            return .failure(.badRequest("A request needs exactly one Host header."))
        }
        if let host = hosts.first, !HostAuthority.isValid(host) {
            return .failure(.badRequest("The Host header is not a valid authority."))
        }
        for name in limits.singletonFields where headers.occurrences(of: name) > 1 {
            return .failure(.badRequest("A request may carry only one \(name) header."))
        }
        let framing: HTTPRequestHead.Framing
        switch HTTPRequestParser.framing(headers, version: version) {
        case .success(let value): framing = value
        case .failure(let error): return .failure(error)
        }
        let expectation = headers["Expect"]?.lowercased()
        let hasBody = framing != .none && framing != .length(0)
        let parsedHead = HTTPRequestHead(method: method, target: target, version: version, headers: headers,
                                         framing: framing,
                                         expectsContinue: hasBody && version == .http1_1 && expectation == "100-continue")
        head = parsedHead
        guard hasBody else { return .request }
        bodyLimit = limitFor(parsedHead)
        switch framing {
        case .none, .length(0):
            return .request
        case .length(let length):
            if length > bodyLimit { return .failure(.contentTooLarge(limit: bodyLimit)) }
            // Grown as bytes arrive, never reserved from the announcement: a client that announces
            // 6 MiB and sends nothing holds nothing.
            phase = .fixedBody(remaining: length)
        case .chunked:
            phase = .chunkSize
        }
        return parsedHead.expectsContinue && !continueReported ? .continueExpected : .needMore
    }

    /// RFC 9112 §6.1–§6.3: chunked must be the final coding and applied once; Transfer-Encoding
    /// together with Content-Length, or in HTTP/1.0, is refused; Content-Length must be one number.
    static func framing(_ headers: HTTPHeaders, version: HTTPVersion) -> Result<HTTPRequestHead.Framing, HTTPParseError> {
        let transferEncodings = headers.values("Transfer-Encoding")
        let contentLengths = headers.values("Content-Length")
        if !transferEncodings.isEmpty {
            guard contentLengths.isEmpty else {
                return .failure(.badRequest("Transfer-Encoding and Content-Length together are not accepted."))
            }
            guard version == .http1_1 else {
                return .failure(.badRequest("Transfer-Encoding is not accepted in HTTP/1.0."))
            }
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }
                .map { $0.trimmingASCIISpaces().lowercased() }
            guard codings.last == "chunked", codings.filter({ $0 == "chunked" }).count == 1 else {
                return .failure(.badRequest("chunked must be the final transfer coding, applied once."))
            }
            guard codings.count == 1 else {
                return .failure(.notImplemented("Only the chunked transfer coding is supported."))
            }
            return .success(.chunked)
        }
        guard !contentLengths.isEmpty else { return .success(.none) }
        var length: Int?
        for element in contentLengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            guard let value = decimal(element.trimmingASCIISpaces()) else {
                return .failure(.badRequest("Malformed Content-Length."))
            }
            if let length, length != value {
                return .failure(.badRequest("Conflicting Content-Length values."))
            }
            length = value
        }
        return .success(.length(length!))
    }

    /// 1*DIGIT; values too large for `Int` saturate (they fail the body limit anyway).
    static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard let digit = HTTPSyntax.decimalDigit(byte) else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int(digit))
            value = overflow1 || overflow2 ? Int.max : sum
        }
        return value
    }

    /// chunk-size [ chunk-ext ] (RFC 9112 §7.1): hex digits, then optionally `;` extensions, which
    /// are ignored but must hold no control characters.
    static func chunkSize(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        var size = 0
        var index = 0
        while index < line.count, let digit = Hex.nibble(line[index]) {
            guard size <= (Int.max >> 4) else { return nil }
            size = size << 4 | Int(digit)
            index += 1
        }
        guard index > 0 else { return nil }
        var rest = UnsafeBufferPointer(rebasing: line[index...])
        while let first = rest.first, first == HTTPSyntax.space || first == HTTPSyntax.tab {
            rest = UnsafeBufferPointer(rebasing: rest.dropFirst())
        }
        if rest.isEmpty { return size }
        guard rest[0] == UInt8(ascii: ";"), rest.allSatisfy(HTTPSyntax.isFieldValueCharacter) else { return nil }
        return size
    }

    private mutating func finishRequest() -> Event {
        let event = Event.request(head!, body: body)
        phase = .requestLine
        scanned = 0
        leadingEmptyLines = 0
        headers = HTTPHeaders()
        headerBytes = 0
        head = nil
        body = []
        spooledBytes = 0
        continueReported = false
        return event
    }
}

extension HTTPSyntax {
    static func decimalDigit(_ byte: UInt8) -> UInt8? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? byte - UInt8(ascii: "0") : nil
    }
}
