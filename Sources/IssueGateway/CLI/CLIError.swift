/// How a command ends badly. The exit status tells scripts which: 2 for a usage error (fix the
/// command line), 1 for a failure (the command was right, the work failed).
enum CLIError: Error, Equatable {
    case usage(String)
    case failure(String)

    var exitStatus: Int32 {
        switch self {
        case .usage: return ExitStatus.usage
        case .failure: return ExitStatus.failure
        }
    }

    var message: String {
        switch self {
        case .usage(let m), .failure(let m): return m
        }
    }
}

enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
}
