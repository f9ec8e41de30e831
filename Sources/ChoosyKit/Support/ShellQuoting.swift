/// One shell word per argument, quoted only when needed, so `--dry-run` output can be pasted
/// into a POSIX shell and run as the same argv. A word is shown (`singleLine`): one holding a
/// character that choosy never prints raw (a bidi override in a link or a profile name) is
/// written with its escape, and that word alone no longer pastes as it was.
package func shellQuoted(_ argv: [String]) -> String {
    concatenated(argv.map(shellQuoted), separator: " ")
}

package func shellQuoted(_ word: String) -> String {
    let word = singleLine(word)
    let safe =
        !word.isEmpty
        && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar))
        }
    if safe { return word }
    return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
}
