/// One source's description of an app type, as written: every field may be missing, so that
/// merging can tell "not said" from "said". `CatalogMerger` turns records into `AppType`s.
package struct AppTypeRecord: Equatable, Sendable {
    package var key: String
    package var name: String?
    package var parameters: [ParameterRecord]?
    package var actions: [ActionRecord]?
    package var apps: [AppRecord]?
    /// Standard URL schemes the type's actions can be written in (Linux addition).
    package var schemes: [String]?
    /// MIME types of local files the type's apps open (Linux addition).
    package var mimeTypes: [String]?
    /// Web links that mean one of the type's actions (Linux addition).
    package var links: [CatalogLink]?
}

package struct ParameterRecord: Equatable, Sendable {
    package var key: String
    package var name: String?
    package var description: String?
}

package struct ActionRecord: Equatable, Sendable {
    package var key: String
    package var name: String?
    /// The generic form of the action for any app of the type's `schemes` (Linux addition).
    package var urlFormat: String?
}

package struct AppRecord: Equatable, Sendable {
    package var key: String
    package var name: String?
    package var appURLScheme: String?
    package var desktopIDs: [String]?
    package var docs: String?
    package var actions: [AppActionRecord]?
    package var profiles: AppProfiles?
    package var privateArguments: [String]?
    package var newWindowArguments: [String]?
}

package struct AppActionRecord: Equatable, Sendable {
    package var key: String
    package var urlFormat: String?
}

package struct CatalogFormatError: Error, CustomStringConvertible, Sendable {
    package var description: String
}

/// Reads the choosy-data format leniently: unknown keys are ignored, fields of the wrong
/// type count as missing, entries without a key are skipped, and app types whose key is not
/// `^[a-z0-9_]+$` are rejected, all of a file's rejections in one warning (a hostile file
/// must not flood stderr). Only a file that is not a JSON array of objects is an error.
package enum CatalogDecoder {
    /// Rejected keys are quoted in the warning up to this many characters each.
    static let shownKeyLength = 40
    /// Invalid links get a line each, up to this many per file.
    static let shownProblems = 5

    package static func decode(_ bytes: [UInt8], source: String, diagnostics: DiagnosticSink) throws(CatalogFormatError) -> [AppTypeRecord]
    {
        let types: [JSONValue]
        do {
            types = try JSONShape.array(
                of: JSONShape { value throws(JSONError) in
                    guard case .object = value else { throw JSONError(shape: "should be an object") }
                    return value
                }
            ).read(try JSONReader.parse(bytes))
        } catch {
            throw CatalogFormatError(description: "\(source): not a JSON array of app types (\(error))")
        }
        var records: [AppTypeRecord] = []
        var rejected: [String] = []
        var invalidLinks: [String] = []
        for type in types {
            guard let key = type["key"]?.stringValue else {
                rejected.append("(no key)")
                continue
            }
            guard isValidTypeKey(key) else {
                let shown = key.count > shownKeyLength ? key.prefix(shownKeyLength) + "…" : key
                rejected.append("'\(shown)'")
                continue
            }
            records.append(record(key: key, type, source: source, invalidLinks: &invalidLinks))
        }
        if !rejected.isEmpty {
            let count = rejected.count == 1 ? "an app type" : "\(rejected.count) app types"
            diagnostics.warning(
                "\(source): ignoring \(count) with an invalid key: \(rejected.joined(separator: ", ")) (keys match ^[a-z0-9_]+$)")
        }
        for problem in invalidLinks.prefix(shownProblems) {
            diagnostics.warning("\(source): ignoring link \(problem)")
        }
        if invalidLinks.count > shownProblems {
            diagnostics.warning("\(source): ignoring \(invalidLinks.count - shownProblems) more invalid links")
        }
        return records
    }

    /// One app type, leniently: a field of the wrong kind is missing, and so is an array
    /// element of the wrong kind or (for parameters, actions and apps) one without a key.
    private static func record(key: String, _ type: JSONValue, source: String, invalidLinks: inout [String]) -> AppTypeRecord {
        AppTypeRecord(
            key: key,
            name: type["name"]?.stringValue,
            parameters: type["parameters"]?.elements?.compactMap { parameter in
                parameter["key"]?.stringValue.map {
                    ParameterRecord(key: $0, name: parameter["name"]?.stringValue, description: parameter["description"]?.stringValue)
                }
            },
            actions: type["actions"]?.elements?.compactMap { action in
                action["key"]?.stringValue.map {
                    ActionRecord(key: $0, name: action["name"]?.stringValue, urlFormat: action["url_format"]?.stringValue)
                }
            },
            apps: type["apps"]?.elements?.compactMap { app in
                guard let appKey = app["key"]?.stringValue, !appKey.isEmpty else { return nil }
                return AppRecord(
                    key: appKey,
                    name: app["name"]?.stringValue,
                    appURLScheme: app["app_url_scheme"]?.stringValue,
                    desktopIDs: app["desktop_ids"]?.elements?.compactMap(\.stringValue),
                    docs: app["docs"]?.stringValue,
                    actions: app["actions"]?.elements?.compactMap { action in
                        action["key"]?.stringValue.map { AppActionRecord(key: $0, urlFormat: action["url_format"]?.stringValue) }
                    },
                    profiles: app["profiles"].flatMap(profiles),
                    privateArguments: app["private"].flatMap(arguments),
                    newWindowArguments: app["new_window"].flatMap(arguments)
                )
            },
            schemes: type["schemes"]?.elements?.compactMap { $0.stringValue.flatMap(normalizedScheme) },
            mimeTypes: type["mime_types"]?.elements?.compactMap { $0.stringValue.flatMap(normalizedMimeType) },
            links: type["links"]?.elements?.compactMap { link(key: key, $0, source: source, invalid: &invalidLinks) }
        )
    }

    /// `profiles`, when it names a known format and its `args` use `{{profile}}`: without
    /// them a profile could not be chosen. A path is a string or an array of strings (the
    /// places the browser chooses between); anything else is dropped.
    private static func profiles(_ value: JSONValue) -> AppProfiles? {
        guard let format = value["format"]?.stringValue.flatMap(AppProfiles.Format.init(rawValue:)),
            let arguments = value["args"].flatMap(arguments),
            arguments.contains(where: { holds($0, AppProfiles.placeholder) }),
            case .object(let members)? = value["paths"]
        else { return nil }
        var paths: [String: [String]] = [:]
        for (id, path) in members {
            let candidates = path.elements.map { $0.compactMap(\.stringValue) } ?? path.stringValue.map { [$0] } ?? []
            let usable = candidates.filter { !$0.isEmpty }
            if !usable.isEmpty { paths[id] = usable }
        }
        return AppProfiles(format: format, paths: paths, arguments: arguments)
    }

    /// A non-empty array of non-empty strings, else nil (any other element makes it unusable:
    /// an argument left out would change what the rest mean).
    private static func arguments(_ value: JSONValue) -> [String]? {
        guard let elements = value.elements, !elements.isEmpty else { return nil }
        let strings = elements.compactMap(\.stringValue).filter { !$0.isEmpty }
        return strings.count == elements.count ? strings : nil
    }

    /// One entry of `links`, or nil with the reason noted; its pattern is read when links are
    /// needed (`AppType.readLinks`).
    private static func link(key: String, _ value: JSONValue, source: String, invalid: inout [String]) -> CatalogLink? {
        guard let pattern = value["pattern"]?.stringValue, let action = value["action"]?.stringValue, !action.isEmpty else {
            let shown = value["pattern"]?.stringValue.map { "'\($0.prefix(80))'" } ?? "(no pattern)"
            invalid.append("\(shown) of '\(key)': a link needs a \"pattern\" and an \"action\"")
            return nil
        }
        let linkParam = value["link_param"]?.stringValue
        var examples: [LinkExample] = []
        for (index, example) in (value["examples"]?.elements ?? []).enumerated() {
            guard let parsed = Self.example(example) else {
                invalid.append(
                    "example \(index + 1) of '\(pattern.prefix(80))' of '\(key)': it must be {\"link\", \"action\", \"parameters\"} or {\"link\", \"browser\": true}"
                )
                continue
            }
            examples.append(parsed)
        }
        return CatalogLink(
            action: action, pattern: pattern, linkParam: linkParam?.isEmpty == true ? nil : linkParam,
            apps: value["apps"]?.elements?.compactMap(\.stringValue),
            parameters: value["parameters"]?.members.map(Self.textMembers) ?? [:],
            plusIsSpace: value["plus_is_space"]?.boolValue == true, examples: examples, origin: source)
    }

    private static func example(_ value: JSONValue) -> LinkExample? {
        guard let link = value["link"]?.stringValue, !link.isEmpty else { return nil }
        if value["browser"]?.boolValue == true { return LinkExample(link: link, expected: .browser) }
        guard let action = value["action"]?.stringValue, let parameters = value["parameters"]?.members else { return nil }
        let text = textMembers(parameters)
        guard text.count == parameters.count else { return nil }
        return LinkExample(link: link, expected: .action(action, parameters: text))
    }

    /// The members whose values are text.
    private static func textMembers(_ members: [(String, JSONValue)]) -> [String: String] {
        var text: [String: String] = [:]
        for (name, value) in members { if let string = value.stringValue { text[name] = string } }
        return text
    }

    /// A scheme as RFC 3986 spells one, lowercased; anything else is dropped (it could never
    /// match a `x-scheme-handler/` type).
    private static func normalizedScheme(_ scheme: String) -> String? {
        let bytes = Array(scheme.utf8)
        guard let first = bytes.first, isASCIILetter(first),
            bytes.allSatisfy({ isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        return scheme.lowercased()
    }

    /// `media/subtype`, lowercased: two non-empty parts of printable ASCII without blanks,
    /// `/`, `;` or `=` (what a `mimeapps.list` line can hold); nil for anything else.
    private static func normalizedMimeType(_ type: String) -> String? {
        let parts = type.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty }),
            type.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "=") })
        else { return nil }
        return type.lowercased()
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
    }
}

extension AppTypeRecord {
    /// The record as a downloaded file may give it: without its apps' launch arguments
    /// (`private`, `new_window` and `profiles`, whose `args` and profile names reach the app's argv), with
    /// the keys of the apps that had some. Those come only from the bundled catalog and the
    /// user's own files (doc/security.md, "Launch arguments"): whoever answers for the
    /// catalog URL must not be able to add an option such as `--gpu-launcher=CMD`.
    package func withoutLaunchArguments() -> (record: AppTypeRecord, ignored: [String]) {
        var record = self
        var ignored: [String] = []
        record.apps = apps?.map { app in
            guard app.profiles != nil || app.privateArguments != nil || app.newWindowArguments != nil else { return app }
            ignored.append(app.key)
            var trusted = app
            trusted.profiles = nil
            trusted.privateArguments = nil
            trusted.newWindowArguments = nil
            return trusted
        }
        return (record, ignored)
    }
}
