import AppStoreKit
import CCrypto
import Foundation

/// A scripted receipt as the verifyReceipt-era app receipt (appstore.md, last paragraph): a
/// PKCS#7 signedData, signed with the test CA's leaf through libcrypto's CMS, whose content is the
/// `SET OF ReceiptAttribute` with the bundle id (2) and one in-app record (17) per transaction
/// holding 1703 (transaction id) and 1705 (original transaction id). Only what the gateway reads.
public enum PKCS7ReceiptRendering {
    /// The base64 receipt, as an app would send it; nil when libcrypto could not sign.
    public static func base64(bundleId: String, transactions: [ScriptedTransaction],
                              authority: TestCertificateAuthority) -> String? {
        let inApp = transactions.map { t in
            attribute(17, set([attribute(1703, utf8(t.transactionId)), attribute(1705, utf8(t.originalTransactionId))]))
        }
        let payload = set([attribute(2, utf8(bundleId))] + inApp)
        return sign(payload, authority)?.base64EncodedString()
    }

    private static func sign(_ payload: [UInt8], _ authority: TestCertificateAuthority) -> Data? {
        defer { OpenSSLErrorQueue.clear() }
        let bio = payload.withUnsafeBufferPointer { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }
        guard let bio else { return nil }
        defer { BIO_free(bio) }
        guard let cms = CMS_sign(authority.leaf.pointer, authority.leafKey.pointer, nil, bio, UInt32(CMS_BINARY)) else { return nil }
        defer { CMS_ContentInfo_free(cms) }
        return DEREncoding.encode { i2d_CMS_ContentInfo(cms, $0) }
    }

    // DER (X.690 §8.1): tag, definite length, content.
    private static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        if content.count < 0x80 {
            length = [UInt8(content.count)]
        } else {
            var n = content.count
            var bytes: [UInt8] = []
            while n > 0 { bytes.insert(UInt8(n & 0xff), at: 0); n >>= 8 }
            length = [0x80 | UInt8(bytes.count)] + bytes
        }
        return [tag] + length + content
    }

    private static func integer(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var n = value
        repeat { bytes.insert(UInt8(n & 0xff), at: 0); n >>= 8 } while n > 0
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    private static func utf8(_ text: String) -> [UInt8] { tlv(0x0c, Array(text.utf8)) }
    private static func set(_ elements: [[UInt8]]) -> [UInt8] { tlv(0x31, elements.flatMap { $0 }) }

    private static func attribute(_ type: Int, _ value: [UInt8]) -> [UInt8] {
        tlv(0x30, integer(type) + integer(1) + tlv(0x04, value))
    }
}
