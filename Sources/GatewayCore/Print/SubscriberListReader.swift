import Wire

/// A subscriber list read as it arrives (http-api.md, Print subscribers and institutions), in
/// pieces of any size, holding only the line being read: CSV with a header line naming
/// `customerNumber`, `verification`, `start` and `end` in any order (`end` may be left out), or
/// JSON lines with the same names. A bad line is refused with its number and reason and nothing
/// else; a CSV header that lacks a column refuses the list (`headerError`).
package struct SubscriberListReader: Sendable {
    package static let columns = ["customerNumber", "verification", "start", "end"]
    package static let requiredColumns = ["customerNumber", "verification", "start"]
    /// A list line is a few dozen bytes; this leaves room for long values and quoting.
    package static let maxLineBytes = 4096

    private let format: SubscriberListFormat
    private var csv = CSVRecordSplitter(maxRecordBytes: Self.maxLineBytes)
    /// CSV: each known column's position, once the header is read.
    private var positions: [String: Int]?
    private var width = 0
    /// JSON lines: the line being read and its number.
    private var pending: [UInt8] = []
    private var line = 1
    private var overlong = false
    /// Set when the CSV header is unusable; nothing after it is read.
    package private(set) var headerError: String?

    package init(format: SubscriberListFormat) { self.format = format }

    package mutating func feed(_ bytes: some Sequence<UInt8>, _ emit: (ListLine) throws -> Void) rethrows {
        guard headerError == nil else { return }
        switch format {
        case .csv:
            var splitter = csv
            defer { csv = splitter }
            try splitter.feed(bytes) { record in try self.csvRecord(record, emit) }
        case .ndjson:
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    try endJSONLine(emit)
                } else if pending.count < Self.maxLineBytes {
                    pending.append(byte)
                } else {
                    overlong = true
                }
            }
        }
    }

    package mutating func finish(_ emit: (ListLine) throws -> Void) rethrows {
        guard headerError == nil else { return }
        switch format {
        case .csv:
            var splitter = csv
            defer { csv = splitter }
            try splitter.finish { record in try self.csvRecord(record, emit) }
            if positions == nil { headerError = "the list is empty: a CSV list starts with its header line" }
        case .ndjson:
            if !pending.isEmpty || overlong { try endJSONLine(emit) }
        }
    }

    // MARK: CSV

    private mutating func csvRecord(_ record: CSVRecordSplitter.Record, _ emit: (ListLine) throws -> Void) rethrows {
        guard headerError == nil else { return }
        guard let positions else { return readHeader(record) }
        switch record {
        case .malformed(let line, let reason): try emit(.rejected(line: line, RowError(reason)))
        case .fields(let fields, let line):
            guard fields.count == width else {
                return try emit(.rejected(line: line, RowError("expected \(width) fields, found \(fields.count)")))
            }
            var values: [String: String] = [:]
            for (name, position) in positions {
                guard let text = String(validating: fields[position], as: UTF8.self) else {
                    return try emit(.rejected(line: line, RowError("\(name) is not UTF-8")))
                }
                values[name] = text
            }
            try emit(Self.line(ListedRow.make(customerNumber: values["customerNumber"], verification: values["verification"],
                                              start: values["start"], end: values["end"], line: line), line: line))
        }
    }

    private mutating func readHeader(_ record: CSVRecordSplitter.Record) {
        guard case .fields(var fields, _) = record else {
            headerError = "the CSV header line is malformed"
            return
        }
        // A UTF-8 byte order mark before the header is no part of the first name.
        if let first = fields.first, first.starts(with: [0xEF, 0xBB, 0xBF]) { fields[0] = Array(first.dropFirst(3)) }
        var positions: [String: Int] = [:]
        for (index, bytes) in fields.enumerated() {
            let name = String(decoding: bytes, as: UTF8.self)
            guard Self.columns.contains(name) else {
                headerError = "unknown CSV column \"\(name)\"; the columns are \(Self.columns.joined(separator: ", "))"
                return
            }
            guard positions[name] == nil else {
                headerError = "the CSV column \(name) is named twice"
                return
            }
            positions[name] = index
        }
        for name in Self.requiredColumns where positions[name] == nil {
            headerError = "the CSV header must name \(Self.requiredColumns.joined(separator: ", ")) (and may name end)"
            return
        }
        self.positions = positions
        width = fields.count
    }

    // MARK: JSON lines

    private mutating func endJSONLine(_ emit: (ListLine) throws -> Void) rethrows {
        let number = line
        line += 1
        defer { pending.removeAll(keepingCapacity: true); overlong = false }
        if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
        if overlong {
            return try emit(.rejected(line: number, RowError("the line is longer than \(Self.maxLineBytes) bytes")))
        }
        if pending.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return }
        guard let value = try? JSONValue.parse(bytes: pending), let object = value.objectValue else {
            return try emit(.rejected(line: number, RowError("the line is not a JSON object")))
        }
        var values: [String: String] = [:]
        for member in object {
            guard Self.columns.contains(member.name) else {
                return try emit(.rejected(line: number, RowError("unknown member \(member.name)")))
            }
            switch member.value {
            case .string(let text): values[member.name] = text
            case .null where member.name == "end": break
            default: return try emit(.rejected(line: number, RowError("\(member.name) must be a string")))
            }
        }
        try emit(Self.line(ListedRow.make(customerNumber: values["customerNumber"], verification: values["verification"],
                                          start: values["start"], end: values["end"], line: number), line: number))
    }

    private static func line(_ result: Result<ListedRow, RowError>, line: Int) -> ListLine {
        switch result {
        case .success(let row): .row(row)
        case .failure(let error): .rejected(line: line, error)
        }
    }
}
