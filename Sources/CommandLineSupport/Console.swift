import Foundation

/// Where a command writes: results to `out`, messages and errors to `err`. Tests capture both.
public final class Console: @unchecked Sendable {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void

    public init(out: @escaping (String) -> Void, err: @escaping (String) -> Void) { writeOut = out; writeErr = err }

    public static let standard = Console(
        out: { FileHandle.standardOutput.write(Data($0.utf8)) },
        err: { FileHandle.standardError.write(Data($0.utf8)) })

    public func out(_ line: String) { writeOut(line + "\n") }
    public func err(_ line: String) { writeErr(line + "\n") }
}
