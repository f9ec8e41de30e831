/// The symbol an identifier routes to, after KNMSegueRouting (doc/hooks-and-callbacks.md, "Hooks"): split on every
/// character outside `A-Z a-z 0-9 _`, uppercase the first character of each part, keep the
/// rest, join. `push-user-page` → `PushUserPage`.
///
/// Works on Unicode scalars so that every non-ASCII scalar (including a combining mark) is a
/// separator, and the result is always a safe file name: `---` gives `` (nothing routes).
package func symbolify(_ identifier: String) -> String {
    var symbol = String.UnicodeScalarView()
    var atPartStart = true
    for scalar in identifier.unicodeScalars {
        guard scalar.isASCII, scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) else {
            atPartStart = true
            continue
        }
        if atPartStart, ("a"..."z").contains(scalar) {
            symbol.append(Unicode.Scalar(scalar.value - 0x20)!)
        } else {
            symbol.append(scalar)
        }
        atPartStart = false
    }
    return String(symbol)
}
