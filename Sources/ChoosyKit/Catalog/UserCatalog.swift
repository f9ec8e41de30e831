/// The user's own additions and overrides: `$XDG_CONFIG_HOME/choosy/catalog/*.json`, in
/// file-name order, merged last.
package struct UserCatalog: Sendable {
    package let directory: String
    private let fileSystem: FileSystem

    package init(environment: Environment, fileSystem: FileSystem) {
        directory = joinPath(environment.configHome, "choosy", "catalog")
        self.fileSystem = fileSystem
    }

    /// Every valid record from every file; a broken file is skipped with a warning.
    package func records(diagnostics: DiagnosticSink) -> [AppTypeRecord] {
        guard let names = fileSystem.list(directory) else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted().flatMap { name -> [AppTypeRecord] in
            let path = joinPath(directory, name)
            do {
                let bytes = try fileSystem.read(path, limit: JSONReader.ownFileLimit)
                return try CatalogDecoder.decode(bytes, source: path, diagnostics: diagnostics)
            } catch let error as CatalogFormatError {
                diagnostics.warning("ignoring \(error.description)")
            } catch {
                diagnostics.warning("ignoring \(path): \(error)")
            }
            return []
        }
    }
}
