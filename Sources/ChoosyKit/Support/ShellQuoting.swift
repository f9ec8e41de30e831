/// One shell word per argument, quoted only when needed, so `--dry-run` output can be pasted
/// into a POSIX shell and run as the same argv.
package func shellQuoted(_ argv: [String]) -> String {
    concatenated(argv.map(shellQuoted), separator: " ")
}

package func shellQuoted(_ word: String) -> String {
    let safe =
        !word.isEmpty
        && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar))
        }
    if safe { return word }
    return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
}
