/// The project's `catalog/` tree, compiled into the binary by the EmbedCatalog plugin.
package enum BundledCatalog {
    /// What the bundled data says it comes from, in warnings and on its links.
    package static let source = "bundled catalog"

    struct EmbeddedFile: Sendable {
        /// Each type's key, name, and the hosts of its links as the patterns write them (`*.zoom.us`).
        var types: [(key: String, name: String, linkHosts: [String])]
        /// The file without the types' links: what every command that reads the type needs.
        var json: String
        /// The types' links alone, as a catalog file of key and links: only links need them.
        /// Without their examples, which only `describe` reads.
        var links: String
        /// Each link host as the patterns write it (`*.zoom.us`) with its links alone, as a
        /// catalog file of key and links, without examples: a handled link decodes only its host's.
        var linksByHost: [(host: String, links: String)]
        /// The same with the links' examples.
        var linksWithExamples: String
    }

    /// Key and name of every bundled app type, without decoding any file.
    package static var typeSummaries: [(key: String, name: String)] {
        files.flatMap { $0.types.map { ($0.key, $0.name) } }
    }

    /// The JSON text of the file that holds `key`, if bundled.
    package static func json(for key: String) -> String? {
        files.first { file in file.types.contains { $0.key == key } }?.json
    }

    /// The links of the file that holds `key`, as a catalog file of key and links, if bundled;
    /// with their examples only when asked.
    package static func linksJSON(for key: String, withExamples: Bool) -> String? {
        files.first { file in file.types.contains { $0.key == key } }.map { withExamples ? $0.linksWithExamples : $0.links }
    }

    /// The links of `key` whose host could be `host`, each host's as a catalog file, in the order
    /// of their hosts' first links in the type.
    package static func linksJSON(for key: String, host: WebHost) -> [String] {
        guard let file = files.first(where: { file in file.types.contains { $0.key == key } }) else { return [] }
        return file.linksByHost.filter { LinkPattern.HostPattern.couldBe($0.host, host) }.map(\.links)
    }

    /// The JSON text of every bundled file.
    package static var allJSON: [String] { files.map(\.json) }
}
