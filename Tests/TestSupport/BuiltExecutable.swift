import Foundation

/// The executables SwiftPM built next to the test bundle, for tests that must run the real
/// process (signals, crashes, a simulator beside a gateway).
public enum BuiltExecutable {
    public static var issueGateway: URL? { named("issue-gateway") }
    public static var googlePlaySimulator: URL? { named("googleplay-simulator") }

    public static func named(_ name: String) -> URL? {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
