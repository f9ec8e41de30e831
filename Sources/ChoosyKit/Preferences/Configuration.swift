import FoundationEssentials

/// The user's settings file, `$XDG_CONFIG_HOME/choosy/config.json`. It is written by hand, so
/// a broken one is reported (exit 7) rather than moved aside or ignored.
public struct Configuration: Equatable, Sendable {
    /// Base of the remote catalog tree (`<base>/app-data/<type>.json`).
    public var catalogURL: String?
    /// Extra x-callback-url schemes `choosy route` answers to, besides `choosy`.
    public var schemes: [String]
    /// The picker when neither `--picker` nor `CHOOSY_PICKER` says.
    public var picker: String?

    public init(catalogURL: String? = nil, schemes: [String] = [], picker: String? = nil) {
        self.catalogURL = catalogURL
        self.schemes = schemes
        self.picker = picker
    }

    public static func path(environment: Environment) -> String {
        joinPath(environment.configHome, "choosy", "config.json")
    }

    public static func load(environment: Environment, fileSystem: FileSystem) throws(ChoosyError) -> Configuration {
        let path = path(environment: environment)
        guard fileSystem.info(path) != nil else { return Configuration() }
        do {
            let bytes = try fileSystem.read(path, limit: 1 << 20)
            let file = try JSONDecoder().decode(File.self, from: Data(bytes))
            return Configuration(catalogURL: file.catalog_url, schemes: file.schemes ?? [], picker: file.picker)
        } catch {
            throw .corrupt("\(path) is not valid: \(describe(error)); fix or remove it")
        }
    }

    private struct File: Decodable {
        var catalog_url: String?
        var schemes: [String]?
        var picker: String?
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case let error as FileSystemError: return error.reason
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        default: return "invalid JSON"
        }
    }
}
