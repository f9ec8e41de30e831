/// The project's `catalog/` tree, compiled into the binary by the EmbedCatalog plugin.
package enum BundledCatalog {
    struct EmbeddedFile: Sendable {
        var types: [(key: String, name: String)]
        var json: String
    }

    /// Key and name of every bundled app type, without decoding any file.
    package static var typeSummaries: [(key: String, name: String)] {
        files.flatMap(\.types)
    }

    /// The JSON text of the file that holds `key`, if bundled.
    package static func json(for key: String) -> String? {
        files.first { file in file.types.contains { $0.key == key } }?.json
    }

    /// The JSON text of every bundled file.
    package static var allJSON: [String] { files.map(\.json) }
}
