import ChoosyKit
import Glibc

// A picker or callback that exits early must not kill choosy with SIGPIPE.
signal(SIGPIPE, SIG_IGN)

let environment = Environment.current()
let errorStyle = TerminalStyle.forStream(2, environment: environment)
// As the kernel passed them: an argument that is not UTF-8 (a link) must reach its app as given.
let givenArguments = (0..<Int(CommandLine.argc)).dropFirst().map { index in
    CommandLine.unsafeArgv[index].map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))).map { UInt8(bitPattern: $0) } } ?? []
}
let arguments = givenArguments.map { String(decoding: $0, as: UTF8.self) }

func fail(_ error: ChoosyError) -> Never {
    writeStandardError("\(errorStyle.red("choosy:")) \(singleLine(error.message))\n")
    exit(error.status.rawValue)
}

guard environment.absoluteHome != nil else {
    fail(.usage("HOME is not an absolute path and the password database gives no home for this user: set HOME to your home directory"))
}

// Parse, run, print: each command is one unit of ChoosyKit, found in its `CommandTable`.
let invocation: Invocation
do {
    invocation = try CommandTable.parse(arguments)
} catch {
    fail(error)
}
let context = CommandContext(environment: environment, options: invocation.options, givenBytes: GivenBytes(givenArguments))
do {
    let output = try invocation.command.run(in: context)
    writeStandardOutput(output.standardOutput)
    writeStandardError(output.standardError)
    context.finish()
    exit(output.status)
} catch {
    context.finish()
    fail(error)
}
