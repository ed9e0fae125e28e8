// The `stripe-simulator` executable: Stripe played for developers, kept out of the product binary.
import CommandLineSupport
import Foundation

do {
    try StripeSimulatorCommand.run(CommandLine.arguments.dropFirst(), .standard)
    exit(ExitStatus.success)
} catch {
    Console.standard.err("stripe-simulator: \(error.message)")
    if case .usage = error { Console.standard.err("run `stripe-simulator --help` for usage") }
    exit(error.exitStatus)
}
