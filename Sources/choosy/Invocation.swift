import ChoosyKit

/// A parsed command line.
struct LegacyInvocation {
    enum Command {
        case uninstall
        case unit(Invocation)
    }

    var command: Command
    var options = OptionValues()
}
