/// One answer of `choosy __complete`: the word to insert, and what it is for shells that show
/// descriptions (zsh, fish).
package struct CompletionCandidate: Equatable, Sendable {
    package var word: String
    package var description: String

    package init(_ word: String, _ description: String) {
        self.word = word
        self.description = description
    }

    /// `WORD`, or `WORD<TAB>DESCRIPTION`: one line of `choosy __complete`'s output. Names come
    /// from catalog files, so tabs and line breaks in them become spaces.
    package var line: String {
        let word = Self.flattened(word)
        let description = Self.flattened(description)
        return description.isEmpty ? word : word + "\t" + description
    }

    private static func flattened(_ text: String) -> String {
        // Printable ASCII, as most words and descriptions are, has nothing to flatten; walking
        // the bytes is much cheaper than walking the characters.
        guard !text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return text }
        return String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }
}
