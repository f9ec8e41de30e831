import ChoosyKit
import Glibc

// Shows one picker the way `choosy open` will, so tests can drive it in a real terminal
// (tmux) before the CLI exists:
//   choosy-picker-check [--picker P] [--title T] [--no-remember] [--default KEY] KEY[=NAME]…
// Prints `once KEY`, `always KEY` or `cancelled`; errors go to stderr with their exit status.

var arguments = Array(CommandLine.arguments.dropFirst())
var option: String?
var title = "Open with"
var allowAlways = true
var defaultKey: String?
var candidates: [PickerCandidate] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--picker": option = arguments.isEmpty ? nil : arguments.removeFirst()
    case "--title": title = arguments.isEmpty ? title : arguments.removeFirst()
    case "--no-remember": allowAlways = false
    case "--default": defaultKey = arguments.isEmpty ? nil : arguments.removeFirst()
    default:
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        candidates.append(PickerCandidate(appKey: parts[0], displayName: parts.count > 1 ? parts[1] : parts[0]))
    }
}
for index in candidates.indices { candidates[index].isDefault = candidates[index].appKey == defaultKey }

let environment = Environment.current()
do throws(ChoosyError) {
    let preference = PickerPreference.resolve(option: option, environment: environment)
    guard let picker = try PickerSelector(environment: environment).picker(for: preference) else {
        throw ChoosyError.noPickerAvailable(typeName: "Test", candidates: candidates)
    }
    switch try picker.choose(PickerRequest(title: title, candidates: candidates, allowAlways: allowAlways)) {
    case .justOnce(let index): writeStandardOutput("once \(candidates[index].appKey)\n")
    case .always(let index): writeStandardOutput("always \(candidates[index].appKey)\n")
    case .cancelled: writeStandardOutput("cancelled\n")
    }
} catch {
    writeStandardError("choosy-picker-check: \(error.message)\n")
    exit(error.status.rawValue)
}
