import Foundation
import Glibc

/// Runs the choosy binary and SIGKILLs it after a delay, as a crash or a power cut would end
/// it: no handler runs, nothing is flushed.
package struct KillableRun {
    package enum End: Equatable {
        /// It finished before the kill, with this status.
        case exited(Int32)
        case killed
    }

    /// Starts `choosy arguments` in the sandbox's environment and kills it `delay` seconds later
    /// unless it has finished; waits for it either way.
    package static func run(_ sandbox: Sandbox, _ arguments: [String], environment extra: [String: String] = [:], killAfter delay: Double)
        -> End
    {
        var variables = sandbox.environment
        for (name, value) in extra { variables[name] = value.isEmpty ? nil : value }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Sandbox.choosyBinary)
        process.arguments = arguments
        process.environment = variables
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox.root)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try! process.run()
        usleep(useconds_t(delay * 1_000_000))
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal ? .killed : .exited(process.terminationStatus)
    }

    /// How long an undisturbed run takes, in seconds.
    package static func duration(_ sandbox: Sandbox, _ arguments: [String], environment: [String: String] = [:]) -> Double {
        let started = Date()
        sandbox.choosy(arguments, environment: environment)
        return Date().timeIntervalSince(started)
    }
}
