/// How a command ends badly. The exit status tells scripts which: 2 for a usage error (fix the
/// command line), 1 for a failure (the command was right, the work failed).
public enum CLIError: Error, Equatable {
    case usage(String)
    case failure(String)

    public var exitStatus: Int32 {
        switch self {
        case .usage: return ExitStatus.usage
        case .failure: return ExitStatus.failure
        }
    }

    public var message: String {
        switch self {
        case .usage(let m), .failure(let m): return m
        }
    }
}

public enum ExitStatus {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 2
}
