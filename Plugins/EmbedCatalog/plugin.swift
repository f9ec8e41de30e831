import Foundation
import PackagePlugin

/// Compiles the bundled catalog (`catalog/app-data/*.json`) into the library, so the binary
/// works wherever it is copied.
@main
struct EmbedCatalog: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let catalog = context.package.directoryURL.appending(path: "catalog/app-data")
        // A checkout without catalog/ builds an empty bundled catalog; the test suite catches it.
        let files =
            ((try? FileManager.default
            .contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "BundledCatalogData.swift")
        return [
            .buildCommand(
                displayName: "Embedding the bundled catalog (\(files.count) files)",
                executable: try context.tool(named: "catalog-embedder").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
