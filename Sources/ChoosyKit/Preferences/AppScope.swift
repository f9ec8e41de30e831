/// The app a systemd unit was started for, by the names desktops give the scopes they launch
/// apps in (the XDG standard of systemd's desktop-environments document): GNOME, KDE and
/// `systemd-run --user --scope --unit=…` write `app-<launcher>-<desktop ID>-<n>.scope` (the
/// launcher may be missing, Flatpak's is `flatpak`), with the ID systemd-escaped (`-` is
/// `\x2d`); Snap writes `snap.<name>.<app>-<uuid>.scope`, whose entry is `<name>_<app>.desktop`.
package enum AppScope {
    package enum Reading: Equatable, Sendable {
        /// The desktop ID, with `.desktop`.
        case app(String)
        /// Why the unit names no app.
        case noApp(String)
    }

    package static func read(_ unit: String) -> Reading {
        guard unit.hasSuffix(".scope") else { return .noApp("'\(singleLine(unit))' is no scope") }
        let body = unit.dropLast(".scope".count)
        if body.hasPrefix("snap.") { return snap(body.dropFirst("snap.".count)) }
        guard body.hasPrefix("app-") else { return .noApp("the scope '\(singleLine(unit))' is no app's") }
        // Escaped, an ID holds no `-`: the dashes left are the separators.
        let parts = body.dropFirst("app-".count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let escaped = parts.dropLast().last, !escaped.isEmpty else {
            return .noApp("the scope '\(singleLine(unit))' is not app-<launcher>-<desktop ID>-<n>.scope")
        }
        guard let id = unescaped(escaped) else { return .noApp("the scope '\(singleLine(unit))' holds an escape systemd does not write") }
        return checked(id.hasSuffix(".desktop") ? id : id + ".desktop", unit: unit)
    }

    /// `<name>.<app>-<uuid>`.
    private static func snap(_ body: Substring) -> Reading {
        let uuidLength = 36
        guard body.utf8.count > uuidLength + 1 else { return .noApp("the snap scope 'snap.\(singleLine(String(body))).scope' has no UUID") }
        let uuid = body.suffix(uuidLength)
        let rest = body.dropLast(uuidLength)
        guard rest.hasSuffix("-"), uuid.allSatisfy({ $0 == "-" || $0.isHexDigit }),
            let dot = rest.firstIndex(of: ".")
        else { return .noApp("the snap scope 'snap.\(singleLine(String(body))).scope' is not snap.<name>.<app>-<uuid>.scope") }
        let name = rest[..<dot]
        let app = rest[rest.index(after: dot)...].dropLast()
        return checked("\(name)_\(app).desktop", unit: "snap.\(body).scope")
    }

    private static func checked(_ id: String, unit: String) -> Reading {
        guard DesktopEntryIndex.isValidID(id), !id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .noApp("the scope '\(singleLine(unit))' names no desktop ID one can have")
        }
        // GIO puts what it launches in `app-glib-<ID>-<pid>.scope`, and the portal's OpenURI
        // launches choosy through GIO: that scope says who got the link, not who sent it.
        guard id != "choosy.desktop" else { return .noApp("the scope '\(singleLine(unit))' is choosy's own, started for the link") }
        return .app(id)
    }

    /// systemd's `\xNN` escapes decoded, or nil for any other backslash or bytes that are not UTF-8.
    package static func unescaped(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            guard iterator.popFirst() == UInt8(ascii: "x"), let high = iterator.popFirst()?.hexDigitValue,
                let low = iterator.popFirst()?.hexDigitValue
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
