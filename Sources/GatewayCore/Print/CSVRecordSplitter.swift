/// RFC 4180 records from bytes fed in any pieces: fields separated by commas, records by CRLF or
/// LF (a lone CR also ends one), fields optionally in double quotes with `""` for a quote and line
/// breaks inside. Only the record being read is held, up to `maxRecordBytes`; a longer record, or
/// a malformed quote, is refused and skipped to the next physical line, so one bad line costs that
/// line only.
package struct CSVRecordSplitter: Sendable {
    package enum Record: Equatable {
        /// The record's fields (raw bytes) and the physical line it starts on (from 1).
        case fields([[UInt8]], line: Int)
        case malformed(line: Int, String)
    }

    private enum State {
        case fieldStart, unquoted, quoted, quoteInQuoted
        /// After an error: everything up to the next line break is dropped.
        case skipping(String)
    }

    package let maxRecordBytes: Int
    private var state = State.fieldStart
    private var field: [UInt8] = []
    private var fields: [[UInt8]] = []
    private var recordBytes = 0
    /// The physical line being read, and the one the current record started on.
    private var line = 1
    private var recordLine = 1
    /// The last byte was a CR ending a line: an LF right after it belongs to the same break.
    private var afterCR = false

    package init(maxRecordBytes: Int) { self.maxRecordBytes = maxRecordBytes }

    package mutating func feed(_ bytes: some Sequence<UInt8>, _ emit: (Record) throws -> Void) rethrows {
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == lf { continue }
            }
            try take(byte, emit)
        }
    }

    /// The end of input: the last record, if it did not end in a line break.
    package mutating func finish(_ emit: (Record) throws -> Void) rethrows {
        switch state {
        case .quoted: try emitRecord(.malformed(line: recordLine, "a quoted field is not closed"), emit)
        case .skipping(let reason): try emitRecord(.malformed(line: recordLine, reason), emit)
        default:
            if !fields.isEmpty || !field.isEmpty || isInField { try endRecord(emit) }
        }
    }

    private var isInField: Bool { if case .quoteInQuoted = state { true } else { false } }

    private mutating func take(_ byte: UInt8, _ emit: (Record) throws -> Void) rethrows {
        let isBreak = byte == lf || byte == cr
        if case .skipping(let reason) = state {
            if isBreak {
                noteBreak(byte)
                try emitRecord(.malformed(line: recordLine, reason), emit)
                nextLine()
            }
            return
        }
        recordBytes += 1
        if recordBytes > maxRecordBytes {
            state = .skipping("the line is longer than \(maxRecordBytes) bytes")
            field = []; fields = []
            return try take(byte, emit)
        }
        switch state {
        case .fieldStart, .unquoted:
            switch byte {
            case quote:
                if case .fieldStart = state { state = .quoted } else { skip("a quote inside an unquoted field") }
            case comma: endField()
            case lf, cr:
                noteBreak(byte)
                try endRecord(emit)
                nextLine()
            default:
                field.append(byte)
                state = .unquoted
            }
        case .quoted:
            if byte == quote { state = .quoteInQuoted; return }
            if byte == lf { line += 1 } else if byte == cr { line += 1; afterCR = true }
            field.append(byte)
        case .quoteInQuoted:
            switch byte {
            case quote:
                field.append(quote)
                state = .quoted
            case comma: endField()
            case lf, cr:
                noteBreak(byte)
                try endRecord(emit)
                nextLine()
            default: skip("a closing quote must end its field")
            }
        case .skipping:
            break
        }
    }

    private mutating func skip(_ reason: String) {
        state = .skipping(reason)
        field = []; fields = []
    }

    private mutating func endField() {
        fields.append(field)
        field = []
        state = .fieldStart
    }

    private mutating func noteBreak(_ byte: UInt8) {
        if byte == cr { afterCR = true }
    }

    private mutating func nextLine() {
        line += 1
        recordLine = line
    }

    private mutating func endRecord(_ emit: (Record) throws -> Void) rethrows {
        endField()
        let record = fields
        fields = []
        // An empty line is no record.
        if record.count == 1 && record[0].isEmpty && recordBytes <= 1 { return reset() }
        try emitRecord(.fields(record, line: recordLine), emit)
    }

    private mutating func emitRecord(_ record: Record, _ emit: (Record) throws -> Void) rethrows {
        reset()
        try emit(record)
    }

    private mutating func reset() {
        state = .fieldStart
        field = []; fields = []
        recordBytes = 0
    }
}

private let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
