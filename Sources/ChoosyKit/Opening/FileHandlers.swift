/// A local file (SPEC §9.6): its MIME type, found as GIO finds it (`MimeDatabase`), and the
/// apps that open it: the installed apps of the app type whose `mime_types` claim the type or
/// the nearest type it is a kind of (the browser's, for an HTML page: each profile a choice),
/// else the desktop's handlers of the type and of the types it is a kind of (the mime-apps
/// spec), as a type of their own whose default is the desktop's (`mimeapps.list`).
package struct FileHandlers {
    /// What claims the file's type.
    package enum Claim: Equatable, Sendable {
        /// The app type, by its key, whose `mime_types` holds the type or one it is a kind of.
        case appType(String)
        /// No app type with an installed app: the entries associated with the type.
        case associations
    }

    struct Found {
        var fileType: MimeDatabase.FileType
        /// The MIME types whose handlers count: the file's, then those it is a kind of.
        var mimeTypes: [String]
        var type: AppType
        var installed: [InstalledApp]
        var claim: Claim
        /// For `associations`, the key of the default a `mimeapps.list` chose.
        var desktopDefault: String?
    }

    let apps: InstalledAppDirectory
    let mimeTypes: MimeDatabase
    let diagnostics: DiagnosticSink

    /// Throws for a file that is missing or cannot be read (status 4), and when nothing
    /// installed opens its type (status 4).
    func find(_ file: LocalFile) throws(ChoosyError) -> Found {
        let fileType = try mimeTypes.typeOfFileToOpen(file.path, shown: file.text)
        diagnostics.explain("\(file.text) is \(fileType.type): \(fileType.reason)")
        let types = mimeTypes.typeAndAncestors(fileType.type)
        var claiming: [AppType] = []
        for key in apps.typeKeys(claiming: types) { claiming.append(try apps.appType(key)) }
        // The nearest type a catalog type claims; a web app opens no local file.
        if let mimeType = types.first(where: { type in claiming.contains { $0.mimeTypes.contains(type) } }),
            let type = claiming.first(where: { $0.mimeTypes.contains(mimeType) })
        {
            let installed = try apps.installedApps(of: type).filter { !$0.isWebApp }
            if !installed.isEmpty {
                diagnostics.explain("\(type.name) claims \(mimeType): its apps open the file")
                return Found(
                    fileType: fileType, mimeTypes: types, type: type, installed: installed, claim: .appType(type.key), desktopDefault: nil)
            }
            diagnostics.explain("\(type.name) claims \(mimeType), and none of its apps is installed")
        }
        guard let own = apps.fileHandlers(forTypes: types) else {
            throw .unavailable(singleLine("nothing installed opens \(fileType.type) files (\(file.text))"))
        }
        diagnostics.explain(
            "no app type claims \(fileType.type); the entries associated with it"
                + (types.count > 1 ? " and with \(types.dropFirst().joined(separator: ", "))" : "") + ": "
                + own.installed.compactMap(\.entry?.id).joined(separator: ", "))
        return Found(
            fileType: fileType, mimeTypes: types, type: own.type, installed: own.installed, claim: .associations,
            desktopDefault: own.listedDefault)
    }
}
