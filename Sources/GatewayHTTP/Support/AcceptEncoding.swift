import GatewayCore
import HTTPServer

/// Whether a request's `Accept-Encoding` (RFC 9110 §12.5.3) lets the answer be gzip-coded.
package enum AcceptEncoding {
    /// `gzip` (or its alias `x-gzip`, RFC 9110 §8.4.1.3) listed with a weight above 0, or, not
    /// listed, `*` with a weight above 0. `gzip;q=0` refuses it whatever `*` says. No field: the
    /// identity coding, as most servers answer clients that did not ask.
    package static func allowsGzip(_ request: HTTPRequest) -> Bool {
        var gzip: Bool?, any: Bool?
        for element in HeaderList.elements(request, "Accept-Encoding") {
            let parts = element.split(separator: ";")
            let coding = parts[0].trimmingOptionalWhitespace().lowercased()
            let accepted = weight(parts.dropFirst()) > 0
            switch coding {
            case "gzip", "x-gzip": gzip = (gzip ?? false) || accepted
            case "*": any = (any ?? false) || accepted
            default: break
            }
        }
        return gzip ?? any ?? false
    }

    /// The `q` parameter in thousandths (RFC 9110 §12.4.2: `qvalue = ( "0" [ "." 0*3DIGIT ] ) /
    /// ( "1" [ "." 0*3("0") ] )`); 1000 when absent; 0 (refused) when malformed, so that a
    /// weight the server cannot read never turns into consent.
    package static func weight(_ parameters: ArraySlice<Substring>) -> Int {
        for parameter in parameters {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingOptionalWhitespace().lowercased() == "q" else { continue }
            let value = pair[1].trimmingOptionalWhitespace()
            guard let first = value.first, first == "0" || first == "1" else { return 0 }
            var fraction = value.dropFirst()
            if !fraction.isEmpty {
                guard fraction.first == ".", fraction.count <= 4 else { return 0 }
                fraction = fraction.dropFirst()
                guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return 0 }
            }
            let thousandths = Int(fraction.padding(toLength: 3, withPad: "0")) ?? 0
            let total = (first == "1" ? 1000 : 0) + thousandths
            return total > 1000 ? 0 : total
        }
        return 1000
    }
}

extension Substring {
    fileprivate func padding(toLength length: Int, withPad pad: Character) -> String {
        String(self) + String(repeating: pad, count: Swift.max(0, length - count))
    }
}
