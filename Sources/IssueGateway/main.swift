import GatewayConfiguration
// The issue-gateway executable. Everything lives in CLI/ so tests can `@testable import` it.
import Foundation

exit(CommandLineTool.run(Array(CommandLine.arguments.dropFirst()),
                         environment: ProcessInfo.processInfo.environment, console: .standard))
