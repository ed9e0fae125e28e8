import Foundation

/// The `issue-gateway` executable SwiftPM built next to the test bundle, for tests that must run
/// the real process (signals, crashes).
public enum BuiltExecutable {
    public static var issueGateway: URL? {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("issue-gateway")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }
}
