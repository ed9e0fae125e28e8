// The `googleplay-simulator` executable: Google Play for developers and tests, kept out of the
// product binary (it signs push tokens and issues access tokens to whoever holds its key).
import CommandLineSupport
import Foundation

do {
    try GooglePlaySimulatorCommand.run(CommandLine.arguments.dropFirst(), .standard)
    exit(ExitStatus.success)
} catch {
    Console.standard.err("googleplay-simulator: \(error.message)")
    if case .usage = error { Console.standard.err("run `googleplay-simulator --help` for usage") }
    exit(error.exitStatus)
}
