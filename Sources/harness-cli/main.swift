import Foundation

// harness-cli: see `harness-cli --help`.
let words = Array(CommandLine.arguments.dropFirst())
do {
    let arguments = try Arguments.parse(words)
    exit(HarnessCommand(arguments).execute())
} catch {
    Output.error("\(error.diagnostic(words))\n\n\(usage)")
    exit(2)
}
