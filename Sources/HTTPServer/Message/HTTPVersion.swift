/// The protocol versions this server speaks (RFC 9112 §2.3). Anything else is a 505.
public enum HTTPVersion: Sendable, Equatable {
    case http1_0
    case http1_1

}
