// The `appstore-simulator` executable: the App Store simulator for developers and tests, kept out
// of the product binary (it holds a test CA that signs whatever it is told to).
import CommandLineSupport
import Foundation

do {
    try AppStoreSimulatorCommand.run(CommandLine.arguments.dropFirst(), .standard)
    exit(ExitStatus.success)
} catch {
    Console.standard.err("appstore-simulator: \(error.message)")
    if case .usage = error { Console.standard.err("run `appstore-simulator --help` for usage") }
    exit(error.exitStatus)
}
