import ChoosyKit
import Foundation
import Glibc

extension Sandbox {
    /// Makes the binary under test the `choosy` on this sandbox's PATH, as an installed one
    /// is: completion scripts and aliases call it by name.
    package func putChoosyOnPath() {
        let link = bin + "/choosy"
        if !exists(link) {
            precondition(symlink(Sandbox.choosyBinary, link) == 0, "cannot link \(link)")
        }
    }

    /// Runs any program (a shell, make, man) with this sandbox's environment, in its root.
    package func run(_ argv: [String], input: String? = nil, environment extra: [String: String] = [:], timeout: Double = 120) -> Output {
        var variables = environment
        for (name, value) in extra { variables[name] = value.isEmpty ? nil : value }
        let request = ProcessRequest(
            argv: argv, environment: variables, workingDirectory: root, input: input.map { Array($0.utf8) }, timeout: timeout
        )
        let result = try! PosixProcessRunner(fileSystem: LocalFileSystem()).run(request)
        return Output(
            status: result.status,
            stdout: String(decoding: result.stdout, as: UTF8.self),
            rawStderr: String(decoding: result.stderr, as: UTF8.self)
        )
    }
}
