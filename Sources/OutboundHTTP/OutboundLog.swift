import Foundation

/// Where the outside services' clients, and the work that calls them, report what an operator
/// must see (a wrong shared secret, a history not fetched): one line on standard error, named
/// after the program, since these happen on worker threads with no request to answer.
public enum OutboundLog {
    public static let standardError: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("issue-gateway: \(message)\n".utf8))
    }
}
