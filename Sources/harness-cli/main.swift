import Foundation

// harness-cli: see `harness-cli --help` and SPEC §4.
do {
    let arguments = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
    exit(HarnessCommand(arguments).execute())
} catch {
    Output.error("error: \(error.message)\n\n\(usage)")
    exit(2)
}
