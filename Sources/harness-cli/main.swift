import Foundation
import ObserverHarness

// harness-cli: see `harness-cli --help`.
StandardStreams.prepare()
let words = Array(CommandLine.arguments.dropFirst())
do {
    let arguments = try Arguments.parse(words)
    let command = HarnessCommand(arguments)
    let status = command.execute()
    // A diagnostic that could not be written leaves the run unreliable.
    exit(command.output.errorStreamFailed ? 2 : status)
} catch {
    Output(file: nil).error(error.text(words))
    exit(2)
}
