import CCrypto
import Foundation

/// The in-app records of an app receipt from the verifyReceipt era (appstore.md, the last
/// paragraph): a PKCS#7 signedData (read with libcrypto's CMS) whose content is a DER SET of
/// `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`; type 17
/// is one in-app purchase, itself such a SET, where 1703 is the transaction id and 1705 the
/// original transaction id (UTF8String inside the OCTET STRING).
///
/// The signature is NOT checked here: an id read this way is attacker-chosen unless the receipt
/// was verified by Apple, so it is only used for receipts the gateway stored after verifyReceipt
/// accepted them (`issue-gateway appstore migrate`).
public enum AppReceipt {
    public struct InAppRecord: Sendable, Equatable {
        public var transactionId: String?
        public var originalTransactionId: String?
    }

    public enum ReadError: Error, Equatable, Sendable {
        case notBase64
        case tooLarge(limit: Int)
        case notPKCS7
        case noContent
        case malformed(String)
    }

    /// Receipts with years of renewals are a few hundred KiB.
    public static let maximumBytes = 8 << 20
    static let inAppAttribute = 17
    static let transactionIdAttribute = 1703
    static let originalTransactionIdAttribute = 1705

    /// The records of a base64 receipt as apps send it.
    public static func inAppRecords(base64 text: String) throws(ReadError) -> [InAppRecord] {
        guard text.utf8.count <= maximumBytes * 4 / 3 + 4 else { throw .tooLarge(limit: maximumBytes) }
        guard let der = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { throw .notBase64 }
        return try inAppRecords(der: der)
    }

    public static func inAppRecords(der: Data) throws(ReadError) -> [InAppRecord] {
        guard der.count <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
        let payload = try signedContent(der)
        var records: [InAppRecord] = []
        for attribute in try attributes(payload) where attribute.type == inAppAttribute {
            var record = InAppRecord()
            for field in try attributes(attribute.value) {
                switch field.type {
                case transactionIdAttribute: record.transactionId = try DERReader.string(field.value)
                case originalTransactionIdAttribute: record.originalTransactionId = try DERReader.string(field.value)
                default: continue
                }
            }
            records.append(record)
        }
        return records
    }

    /// The eContent of the signedData, through libcrypto's CMS parser (PKCS#7 is its subset).
    private static func signedContent(_ der: Data) throws(ReadError) -> [UInt8] {
        let content: [UInt8]? = der.withUnsafeBytes { raw -> [UInt8]? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let cms = d2i_CMS_ContentInfo(nil, &cursor, raw.count) else { return nil }
            defer { CMS_ContentInfo_free(cms) }
            guard let slot = CMS_get0_content(cms), let octets = slot.pointee,
                  let bytes = ASN1_STRING_get0_data(octets) else { return [] }
            return Array(UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(octets))))
        }
        OpenSSLErrorQueue.clear()
        guard let content else { throw .notPKCS7 }
        guard !content.isEmpty else { throw .noContent }
        return content
    }

    /// `SET OF ReceiptAttribute`.
    private static func attributes(_ bytes: [UInt8]) throws(ReadError) -> [(type: Int, value: [UInt8])] {
        let set = try DERReader.single(bytes, tag: DERReader.setTag)
        var out: [(Int, [UInt8])] = []
        for element in try DERReader.elements(set) {
            guard element.tag == DERReader.sequenceTag else { throw .malformed("an attribute is not a SEQUENCE") }
            let fields = try DERReader.elements(element.content)
            guard fields.count >= 3, fields[0].tag == DERReader.integerTag, fields[2].tag == DERReader.octetStringTag else {
                throw .malformed("an attribute is not (type, version, value)")
            }
            out.append((try DERReader.integer(fields[0].content), fields[2].content))
        }
        return out
    }
}

/// DER TLVs walked with libcrypto's `ASN1_get_object` (X.690 §8.1): no length or tag is decoded
/// by hand.
enum DERReader {
    static let integerTag = Int32(V_ASN1_INTEGER)
    static let octetStringTag = Int32(V_ASN1_OCTET_STRING)
    static let utf8StringTag = Int32(V_ASN1_UTF8STRING)
    static let ia5StringTag = Int32(V_ASN1_IA5STRING)
    static let sequenceTag = Int32(V_ASN1_SEQUENCE)
    static let setTag = Int32(V_ASN1_SET)

    struct Element {
        var tag: Int32
        var content: [UInt8]
    }

    /// The TLVs one after another in `bytes`.
    static func elements(_ bytes: [UInt8]) throws(AppReceipt.ReadError) -> [Element] {
        var out: [Element] = []
        var offset = 0
        while offset < bytes.count {
            let (element, consumed) = try next(bytes, at: offset)
            out.append(element)
            offset += consumed
        }
        return out
    }

    /// `bytes` as exactly one TLV with `tag`; its content.
    static func single(_ bytes: [UInt8], tag: Int32) throws(AppReceipt.ReadError) -> [UInt8] {
        let (element, consumed) = try next(bytes, at: 0)
        guard element.tag == tag, consumed == bytes.count else { throw .malformed("expected one element of tag \(tag)") }
        return element.content
    }

    private static func next(_ bytes: [UInt8], at offset: Int) throws(AppReceipt.ReadError) -> (Element, Int) {
        var length = 0
        var tag: Int32 = 0
        var xclass: Int32 = 0
        let parsed: (Int32, Int)? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base + offset
            let flags = ASN1_get_object(&cursor, &length, &tag, &xclass, buffer.count - offset)
            guard let end = cursor else { return nil }
            return (flags, end - (base + offset))
        }
        OpenSSLErrorQueue.clear()
        // 0x80: libcrypto's error bit; 0x21: indefinite length, which DER forbids.
        guard let (flags, header) = parsed, flags & 0x80 == 0, flags != 0x21, length >= 0,
              header + length <= bytes.count - offset else { throw .malformed("not DER") }
        let start = offset + header
        return (Element(tag: tag, content: Array(bytes[start..<start + length])), header + length)
    }

    /// A small non-negative INTEGER's value.
    static func integer(_ content: [UInt8]) throws(AppReceipt.ReadError) -> Int {
        guard !content.isEmpty, content.count <= 4, content[0] & 0x80 == 0 else { throw .malformed("an attribute type is out of range") }
        return content.reduce(0) { $0 << 8 | Int($1) }
    }

    /// The UTF8String (or IA5String) inside an attribute's OCTET STRING.
    static func string(_ value: [UInt8]) throws(AppReceipt.ReadError) -> String {
        let (element, consumed) = try next(value, at: 0)
        guard consumed == value.count, element.tag == utf8StringTag || element.tag == ia5StringTag,
              let text = String(validating: element.content, as: UTF8.self) else {
            throw .malformed("an id is not a string")
        }
        return text
    }
}
