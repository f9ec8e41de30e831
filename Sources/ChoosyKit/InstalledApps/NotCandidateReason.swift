/// What was found for one desktop ID an app names, when no usable entry has it (`choosy why`).
package struct DesktopIDLookup: Equatable, Sendable {
    package enum Finding: Equatable, Sendable {
        /// No applications directory has a file for it.
        case missing
        /// The copy that counts says `Hidden=true`: the ID is deleted for the user.
        case hidden(path: String)
        case unusable(path: String, EntryUnusable)
    }

    package var id: String
    package var finding: Finding
    /// A usable copy of the ID in a later directory, which the copy that counts shadows.
    package var shadowedCopy: String?
}

/// Why an app of a type is not one of the candidates of a request (SPEC §7.1, `choosy why`).
package enum NotCandidateReason: Equatable, Sendable {
    /// None of its desktop IDs is a usable entry: what each one is.
    case notInstalled([DesktopIDLookup])
    /// An app found by its scheme: no usable entry is associated with it.
    case noHandler(scheme: String)
    /// Its entry lists the scheme in `MimeType`, but a `[Removed Associations]` line took it away.
    case associationRemoved(desktopID: String, scheme: String)
    /// A web app, and no browser is installed to open it.
    case needsBrowser
    /// It does not support the action, and other installed apps do.
    case noSupport(action: String)
    /// The link's family names the apps that may take it (`apps` of a catalog link), and not this one.
    case notForLink
    /// `--private`, and it cannot open a private window.
    case noPrivateWindow
    /// The user hid it (`"hidden"` in config.json, `choosy hide`): `entry` is the entry that covers it.
    case hiddenByUser(entry: String)

    /// The word `choosy why --json` gives it.
    package var code: String {
        switch self {
        case .notInstalled(let lookups):
            if lookups.contains(where: { $0.shadowedCopy != nil }) { return "shadowed" }
            for lookup in lookups {
                switch lookup.finding {
                case .missing: continue
                case .hidden: return "hidden"
                case .unusable(_, .tryExec): return "try_exec"
                case .unusable(_, .invalidExec): return "invalid_exec"
                case .unusable: return "unusable"
                }
            }
            return "not_installed"
        case .noHandler: return "not_installed"
        case .associationRemoved: return "association_removed"
        case .needsBrowser: return "needs_browser"
        case .noSupport: return "no_support"
        case .notForLink: return "not_for_link"
        case .noPrivateWindow: return "no_private_window"
        case .hiddenByUser: return "hidden_by_user"
        }
    }

    /// The reason in words.
    package var text: String {
        switch self {
        case .notInstalled(let lookups):
            guard !lookups.isEmpty else { return "not installed" }
            return "not installed: " + lookups.map(\.text).joined(separator: "; ")
        case .noHandler(let scheme): return "not installed: no usable entry is associated with \(scheme): links"
        case .associationRemoved(let id, let scheme):
            return "\(id) lists x-scheme-handler/\(scheme), but a [Removed Associations] line of a mimeapps.list takes it away"
        case .needsBrowser: return "a web app, and no browser is installed"
        case .noSupport(let action): return "does not support \(action)"
        case .notForLink: return "this link's family names the apps that can take it, and not this one"
        case .noPrivateWindow: return "cannot open a private window"
        case .hiddenByUser(let entry):
            return "hidden by the user (\"\(singleLine(entry))\" in \"hidden\" of config.json; choosy unhide \(singleLine(entry)) shows it)"
        }
    }
}

extension DesktopIDLookup {
    var text: String {
        let found: String
        switch finding {
        case .missing: found = "\(id) was looked for and not found"
        case .hidden(let path): found = "\(id) is Hidden=true (\(path))"
        case .unusable(let path, let reason): found = "\(id): \(reason) (\(path))"
        }
        return found + (shadowedCopy.map { ", and it shadows the copy in \($0)" } ?? "")
    }
}

extension AppProbe {
    /// What each of the app's desktop IDs is, when none makes it installed: missing, hidden,
    /// unusable, each with the usable copy it shadows, if any.
    package func lookups(for app: App) -> [DesktopIDLookup] {
        app.desktopIDs.compactMap { id in
            let copies = index.copies(id: id)
            guard let first = copies.first?.entry else { return DesktopIDLookup(id: id, finding: .missing) }
            let finding: DesktopIDLookup.Finding
            if first.isHidden {
                finding = .hidden(path: first.path)
            } else if let reason = index.unusable(first) {
                finding = .unusable(path: first.path, reason)
            } else {
                return nil
            }
            let usable = copies.dropFirst().first { !$0.entry.isHidden && index.unusable($0.entry) == nil }
            return DesktopIDLookup(id: id, finding: finding, shadowedCopy: usable?.entry.path)
        }
    }
}
