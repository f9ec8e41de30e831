/// A command line understood: the command to run and what the options set.
package struct Invocation: Sendable {
    package var command: any ChoosyCommand
    package var options: OptionValues
}
