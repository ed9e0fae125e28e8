// issue-gateway-bench: one command per benchmark, run in release mode:
//   swift run -c release issue-gateway-bench <name>
// Results and the machine they ran on are recorded in BENCHMARKS.md.
import Foundation

let benchmarks: [String: () -> Void] = [
    "engine": runEngineBenchmark,
    "tokens": runTokenBenchmark,
    "institutions": runInstitutionBenchmark,
    "signin": runSignInBenchmark,
    "reports-load": runReportsLoad,
    "surge-load": runSurgeLoad,
    "coldpath": runColdPathBenchmark,
    "googleplay-simulator": runGooglePlayPushFixture,
]

let args = CommandLine.arguments.dropFirst()
guard let name = args.first, let run = benchmarks[name] else {
    FileHandle.standardError.write("usage: issue-gateway-bench <\(benchmarks.keys.sorted().joined(separator: "|"))>\n".data(using: .utf8)!)
    exit(2)
}
run()
