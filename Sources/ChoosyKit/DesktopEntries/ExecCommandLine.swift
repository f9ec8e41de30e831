/// Why an `Exec` value cannot be used; the entry is then not usable.
package struct ExecError: Error, Equatable, Sendable, CustomStringConvertible {
    package var description: String
}

/// An `Exec` value split into arguments per the Desktop Entry spec ("The Exec key"), with its
/// field codes still open, so that expansion can put each value into exactly one argv element
/// and never re-parse it: no URL, name or path can ever become a second argument or a command.
///
/// Splitting rules (applied to the value after its string escapes were undone):
/// - arguments are separated by spaces, tabs and newlines;
/// - `"…"` quotes, inside which `\"`, `` \` ``, `\$` and `\\` stand for the second character;
/// - where the spec is silent, shell habits that real entries rely on are accepted: `'…'`
///   quotes without any escapes, and outside quotes `\x` stands for `x`;
/// - other reserved characters (`;`, `|`, `$`, `*`, …) are plain characters, since no shell
///   ever sees the command;
/// - a field code inside quotes (undefined in the spec) is accepted only as the whole argument
///   (`"%u"`); `%%` is a `%` anywhere; any other code, or a lone `%`, makes the `Exec` invalid.
package struct ExecCommandLine: Equatable, Sendable {
    enum Piece: Equatable, Sendable {
        case text(String)
        /// One of `f F u U i c k`.
        case field(Unicode.Scalar)

        var isField: Bool {
            if case .field = self { return true }
            return false
        }
    }

    /// Each argument is a sequence of literal text and field codes.
    let arguments: [[Piece]]

    /// The program: a name looked up on `PATH` or an absolute path.
    package var program: String {
        concatenated(arguments[0].map { if case .text(let text) = $0 { text } else { "" } })
    }

    /// True when the command line takes a URL or file (`%u %U %f %F`); without one, the app is
    /// started without the URL.
    package var takesURL: Bool {
        arguments.contains { $0.contains(where: ExecCommandLine.isURLField) }
    }

    /// True when the command line takes files (`%f %F`) and no URL (`%u %U`): such an app
    /// can only be given a local path.
    package var takesOnlyFiles: Bool {
        let codes = arguments.flatMap { $0.compactMap { if case .field(let code) = $0 { code } else { nil } } }
        return codes.contains { $0 == "f" || $0 == "F" } && !codes.contains { $0 == "u" || $0 == "U" }
    }

    package init(parsing command: String) throws(ExecError) {
        var splitter = Splitter(command)
        let arguments = try splitter.split()
        guard let first = arguments.first else { throw ExecError(description: "empty Exec") }
        guard first.allSatisfy({ !$0.isField }) else { throw ExecError(description: "the program is a field code") }
        self.arguments = arguments
        let program = self.program
        guard !program.isEmpty else { throw ExecError(description: "empty program name") }
        guard !program.contains("=") else { throw ExecError(description: "program name '\(program)' contains '='") }
        guard program.hasPrefix("/") || !program.contains("/") else {
            throw ExecError(description: "program '\(program)' is a relative path")
        }
    }

    /// One pass over the command line, building arguments piece by piece.
    private struct Splitter {
        private var scalars: String.UnicodeScalarView.Iterator
        private var arguments: [[Piece]] = []
        private var pieces: [Piece] = []
        private var text = ""
        /// The argument exists, even if empty (`""`). Removed deprecated codes alone do not
        /// make one, so `app %d %u` has no empty argument in the middle.
        private var exists = false
        private var quotedField = false

        init(_ command: String) {
            scalars = command.unicodeScalars.makeIterator()
        }

        mutating func split() throws(ExecError) -> [[Piece]] {
            while let scalar = scalars.next() {
                switch scalar {
                case " ", "\t", "\n", "\r":
                    try finishArgument()
                case "\"":
                    exists = true
                    try readQuoted(until: "\"", escapable: "\"`$\\")
                case "'":
                    exists = true
                    try readQuoted(until: "'", escapable: "")
                case "\\":
                    exists = true
                    text.unicodeScalars.append(scalars.next() ?? "\\")
                case "%":
                    try readFieldCode(quoted: false)
                default:
                    exists = true
                    text.unicodeScalars.append(scalar)
                }
            }
            try finishArgument()
            return arguments
        }

        /// Reads up to the closing quote; a backslash escapes only the `escapable` characters.
        private mutating func readQuoted(until quote: Unicode.Scalar, escapable: String) throws(ExecError) {
            while let scalar = scalars.next() {
                if scalar == quote { return }
                if scalar == "\\" && !escapable.isEmpty {
                    guard let escaped = scalars.next() else { break }
                    if escapable.unicodeScalars.contains(escaped) {
                        text.unicodeScalars.append(escaped)
                    } else {
                        text.unicodeScalars.append(contentsOf: ["\\", escaped])
                    }
                } else if scalar == "%" {
                    try readFieldCode(quoted: true)
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
            throw ExecError(description: "unterminated quote")
        }

        private mutating func readFieldCode(quoted: Bool) throws(ExecError) {
            guard let code = scalars.next() else { throw ExecError(description: "Exec ends with a lone '%'") }
            switch code {
            case "%":
                exists = true
                text += "%"
            case "f", "F", "u", "U", "i", "c", "k":
                exists = true
                flushText()
                pieces.append(.field(code))
                if quoted { quotedField = true }
            case "d", "D", "n", "N", "v", "m":
                break  // deprecated: expands to nothing
            default:
                throw ExecError(description: "invalid field code '%\(code)'")
            }
        }

        private mutating func flushText() {
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
        }

        private mutating func finishArgument() throws(ExecError) {
            flushText()
            if quotedField && !(pieces.count == 1 && pieces[0].isField) {
                // The spec leaves this undefined. Such arguments are nearly always shell
                // scripts (`sh -c "app %u"`), where a substituted URL would become code.
                throw ExecError(description: "field code inside a quoted argument with other text")
            }
            if exists { arguments.append(pieces) }
            pieces = []
            exists = false
            quotedField = false
        }
    }

    /// The argv for `url`.
    /// - `%u`/`%U`: the URL. `%f`/`%F`: the local path, from an absolute path or a `file:`
    ///   URL; for any other URL the code expands to nothing, because such apps take file names
    ///   and would misread a URL as a relative path (`Launcher` refuses that case before it
    ///   gets here; the spec's alternative, downloading to a temporary file, is not choosy's job).
    /// - `%i`: `--icon <icon>` when standing alone (nothing when there is no icon; nothing when
    ///   embedded in a longer argument, where two arguments cannot go).
    /// - `%c`: `name`. `%k`: `entryPath`.
    /// A code standing alone that expands to nothing removes its argument; an embedded one
    /// leaves the rest of the argument.
    ///
    /// `inserting` (a profile's or a private window's arguments) goes just before the first
    /// argument that holds a URL field code, or before the `@@u`/`@@` that opens the Flatpak
    /// group holding it, so that the browser gets them and not `flatpak run`; at the end
    /// when there is no URL field code.
    package func expand(url: String?, icon: String?, name: String?, entryPath: String?, inserting extra: [String] = []) -> [String] {
        let url = url.flatMap { $0.isEmpty ? nil : $0 }
        let localPath = url.flatMap(ExecCommandLine.localPath(from:))
        func value(_ code: Unicode.Scalar) -> String? {
            let result: String?
            switch code {
            case "u", "U": result = url
            case "f", "F": result = localPath
            case "c": result = name
            case "k": result = entryPath
            default: result = nil
            }
            return result?.isEmpty == false ? result : nil
        }
        var argv: [String] = []
        var inserted = extra.isEmpty
        /// Where the open Flatpak `@@u … @@` group starts in `argv`.
        var groupStart: Int?
        for pieces in arguments {
            if !inserted, pieces.contains(where: ExecCommandLine.isURLField) {
                argv.insert(contentsOf: extra, at: groupStart ?? argv.count)
                inserted = true
            }
            if pieces.count == 1, case .text(let marker) = pieces[0], marker == "@@u" || marker == "@@" {
                // `@@u` always opens a group; `@@` opens one, or closes the one open.
                groupStart = marker == "@@u" || groupStart == nil ? argv.count : nil
            }
            if pieces.count == 1, case .field(let code) = pieces[0] {
                if code == "i" {
                    if let icon, !icon.isEmpty { argv += ["--icon", icon] }
                } else if let value = value(code) {
                    argv.append(value)
                }
                continue
            }
            var argument = ""
            for piece in pieces {
                switch piece {
                case .text(let text): argument += text
                case .field(let code): argument += value(code) ?? ""
                }
            }
            argv.append(argument)
        }
        if !inserted { argv += extra }
        return argv
    }

    private static func isURLField(_ piece: Piece) -> Bool {
        if case .field(let code) = piece { return "uUfF".unicodeScalars.contains(code) }
        return false
    }

    /// An absolute path as it is, or the path of a local `file:` URL, percent-decoded (bytes
    /// that are not UTF-8 as U+FFFD: the launcher passes such a file's own bytes,
    /// `LaunchForm.localFile`); nil for other URLs, remote hosts, and paths that hold NUL (no
    /// argv element can carry one).
    static func localPath(from url: String) -> String? {
        if url.hasPrefix("/") { return url.utf8.contains(0) ? nil : url }
        guard url.utf8.count > 5, url.prefix(5).lowercased() == "file:" else { return nil }
        var rest = url.dropFirst(5)
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if rest.hasPrefix("//") {
            let authority = rest.dropFirst(2).prefix { $0 != "/" }
            guard authority.isEmpty || authority.lowercased() == "localhost" else { return nil }
            rest = rest.dropFirst(2 + authority.count)
        }
        guard rest.hasPrefix("/") else { return nil }
        var bytes: [UInt8] = []
        var utf8 = Array(rest.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let high = utf8[utf8.startIndex].hexDigitValue, let low = utf8[utf8.startIndex + 1].hexDigitValue
            {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        guard !bytes.contains(0) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
