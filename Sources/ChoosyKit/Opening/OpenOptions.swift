/// The options `open`, `url`, `handle` and `route` share (README, "Usage").
public struct OpenOptions: Equatable, Sendable {
    /// `--app KEY`: this app, this once.
    public var app: String?
    /// `--choose`: show the picker; the default stays unless another app is picked always.
    public var choose = false
    /// `--no-remember`: offer *just once* only, and remember nothing.
    public var noRemember = false
    /// `--picker tty|fzf|rofi|zenity|CMD`.
    public var picker: String?
    public var title: String?
    /// `--dry-run`: launch nothing, write nothing, print what would run.
    public var dryRun = false
    /// `--configure CMD`: run before the prepare hook, with the same contract.
    public var configure: String?

    public init() {}
}
