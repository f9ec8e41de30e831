/// The options `open`, `url`, `handle` and `route` share (README, "Usage").
package struct OpenOptions: Equatable, Sendable {
    /// `--app KEY`: this app, this once.
    package var app: String?
    /// `--choose`: show the picker; the default stays unless another app is picked always.
    package var choose = false
    /// `--no-remember`: offer *just once* only, and remember nothing.
    package var noRemember = false
    /// `--picker P`: a name of `PickerPreference.names`, or a command.
    package var picker: String?
    package var title: String?
    /// `--dry-run`: launch nothing, write nothing, print what would run.
    package var dryRun = false
    /// `--configure CMD`: run before the prepare hook, with the same contract.
    package var configure: String?
    /// `--private`: open a private window (doc/profiles.md).
    package var privateWindow = false

    package init() {}
}
