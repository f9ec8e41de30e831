import ChoosyKit
import Glibc

// A picker or callback that exits early must not kill choosy with SIGPIPE.
signal(SIGPIPE, SIG_IGN)

let environment = Environment.current()
let errorStyle = TerminalStyle.forStream(2, environment: environment)
let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ error: ChoosyError) -> Never {
    writeStandardError("\(errorStyle.red("choosy:")) \(singleLine(error.message))\n")
    exit(error.status.rawValue)
}

do {
    let invocation = try CommandLineParser.parse(arguments)
    let status = try CommandRunner(invocation: invocation, environment: environment).run()
    exit(status)
} catch {
    fail(error)
}
