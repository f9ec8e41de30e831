/// A way of asking the user to pick an app: the terminal, fzf, rofi, zenity or a command.
package protocol Picker: Sendable {
    /// Shows the candidates and waits for the user. A picker that cannot be shown at all
    /// throws a `.noChoice` error; a user who backs out gets `.cancelled`, and so does a
    /// request without candidates, at once.
    func choose(_ request: PickerRequest) throws(ChoosyError) -> PickerAnswer
}
