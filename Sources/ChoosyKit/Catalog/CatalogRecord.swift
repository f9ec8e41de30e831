import FoundationEssentials

/// One source's description of an app type, as written: every field may be missing, so that
/// merging can tell "not said" from "said". `CatalogMerger` turns records into `AppType`s.
public struct AppTypeRecord: Equatable, Sendable {
    public var key: String
    public var name: String?
    public var parameters: [ParameterRecord]?
    public var actions: [ActionRecord]?
    public var apps: [AppRecord]?
    /// Standard URL schemes the type's actions can be written in (Linux addition).
    public var schemes: [String]?
}

public struct ParameterRecord: Equatable, Sendable {
    public var key: String
    public var name: String?
    public var description: String?
}

public struct ActionRecord: Equatable, Sendable {
    public var key: String
    public var name: String?
    /// The generic form of the action for any app of the type's `schemes` (Linux addition).
    public var urlFormat: String?
}

public struct AppRecord: Equatable, Sendable {
    public var key: String
    public var name: String?
    public var appURLScheme: String?
    public var desktopIDs: [String]?
    public var docs: String?
    public var actions: [AppActionRecord]?
}

public struct AppActionRecord: Equatable, Sendable {
    public var key: String
    public var urlFormat: String?
}

public struct CatalogFormatError: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// Reads the choosy-data format leniently: unknown keys are ignored, fields of the wrong
/// type count as missing, entries without a key are skipped, and app types whose key is not
/// `^[a-z0-9_]+$` are rejected, all of a file's rejections in one warning (a hostile file
/// must not flood stderr). Only a file that is not a JSON array of objects is an error.
public enum CatalogDecoder {
    /// Rejected keys are quoted in the warning up to this many characters each.
    static let shownKeyLength = 40

    public static func decode(_ bytes: [UInt8], source: String, diagnostics: DiagnosticSink) throws(CatalogFormatError) -> [AppTypeRecord] {
        let raw: [RawType]
        if let plain = plainTypes(bytes) {
            raw = plain
        } else {
            do {
                raw = try JSONDecoder().decode([RawType].self, from: Data(bytes))
            } catch {
                throw CatalogFormatError(description: "\(source): not a JSON array of app types (\(describe(error)))")
            }
        }
        var records: [AppTypeRecord] = []
        var rejected: [String] = []
        for type in raw {
            guard let key = type.key else {
                rejected.append("(no key)")
                continue
            }
            guard isValidTypeKey(key) else {
                let shown = key.count > shownKeyLength ? key.prefix(shownKeyLength) + "…" : key
                rejected.append("'\(shown)'")
                continue
            }
            records.append(AppTypeRecord(
                key: key,
                name: type.name,
                parameters: type.parameters?.compactMap { item in
                    item.value?.key.map { ParameterRecord(key: $0, name: item.value?.name, description: item.value?.description) }
                },
                actions: type.actions?.compactMap { item in
                    item.value?.key.map { ActionRecord(key: $0, name: item.value?.name, urlFormat: item.value?.url_format) }
                },
                apps: type.apps?.compactMap { item in
                    guard let app = item.value, let appKey = app.key, !appKey.isEmpty else { return nil }
                    return AppRecord(
                        key: appKey,
                        name: app.name,
                        appURLScheme: app.app_url_scheme,
                        desktopIDs: app.desktop_ids?.compactMap(\.value),
                        docs: app.docs,
                        actions: app.actions?.compactMap { entry in
                            entry.value?.key.map { AppActionRecord(key: $0, urlFormat: entry.value?.url_format) }
                        }
                    )
                },
                schemes: type.schemes?.compactMap { $0.value.flatMap(normalizedScheme) }
            ))
        }
        if !rejected.isEmpty {
            let count = rejected.count == 1 ? "an app type" : "\(rejected.count) app types"
            diagnostics.warning("\(source): ignoring \(count) with an invalid key: \(rejected.joined(separator: ", ")) (keys match ^[a-z0-9_]+$)")
        }
        return records
    }

    /// The wire shapes read the way `JSONDecoder` reads them, when `PlainJSON` can read the
    /// file (a JSON array of objects, as every real catalog file is); nil sends the file
    /// through `JSONDecoder`, which also words the errors.
    private static func plainTypes(_ bytes: [UInt8]) -> [RawType]? {
        guard case .array(let elements)? = PlainJSON.parse(bytes) else { return nil }
        var types: [RawType] = []
        types.reserveCapacity(elements.count)
        for element in elements {
            guard case .object(let members) = element else { return nil }
            types.append(RawType(members))
        }
        return types
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

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return context.debugDescription
        case DecodingError.typeMismatch(_, let context): return context.debugDescription
        default: return "invalid JSON"
        }
    }
}

// The wire shapes. Every field is optional and tolerant of the wrong JSON type. Each is
// decoded either by JSONDecoder or from a `PlainJSON` object, with the same result: a field of
// the wrong type is nil, an array element of the wrong type is a nil `Lenient`.

private struct RawType: Decodable {
    var key: String?
    var name: String?
    var parameters: [Lenient<RawParameter>]?
    var actions: [Lenient<RawAction>]?
    var apps: [Lenient<RawApp>]?
    var schemes: [Lenient<String>]?

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        key = container.lenient("key")
        name = container.lenient("name")
        parameters = container.lenient("parameters")
        actions = container.lenient("actions")
        apps = container.lenient("apps")
        schemes = container.lenient("schemes")
    }

    init(_ members: [String: PlainJSON]) {
        key = members["key"]?.string
        name = members["name"]?.string
        parameters = members["parameters"]?.lenientArray(RawParameter.init)
        actions = members["actions"]?.lenientArray(RawAction.init)
        apps = members["apps"]?.lenientArray(RawApp.init)
        schemes = members["schemes"]?.lenientArray { $0.string }
    }
}

private struct RawParameter: Decodable {
    var key: String?
    var name: String?
    var description: String?

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        key = container.lenient("key")
        name = container.lenient("name")
        description = container.lenient("description")
    }

    init(_ members: [String: PlainJSON]) {
        key = members["key"]?.string
        name = members["name"]?.string
        description = members["description"]?.string
    }
}

private struct RawAction: Decodable {
    var key: String?
    var name: String?
    var url_format: String?

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        key = container.lenient("key")
        name = container.lenient("name")
        url_format = container.lenient("url_format")
    }

    init(_ members: [String: PlainJSON]) {
        key = members["key"]?.string
        name = members["name"]?.string
        url_format = members["url_format"]?.string
    }
}

private struct RawApp: Decodable {
    var key: String?
    var name: String?
    var app_url_scheme: String?
    var desktop_ids: [Lenient<String>]?
    var docs: String?
    var actions: [Lenient<RawAppAction>]?

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        key = container.lenient("key")
        name = container.lenient("name")
        app_url_scheme = container.lenient("app_url_scheme")
        desktop_ids = container.lenient("desktop_ids")
        docs = container.lenient("docs")
        actions = container.lenient("actions")
    }

    init(_ members: [String: PlainJSON]) {
        key = members["key"]?.string
        name = members["name"]?.string
        app_url_scheme = members["app_url_scheme"]?.string
        desktop_ids = members["desktop_ids"]?.lenientArray { $0.string }
        docs = members["docs"]?.string
        actions = members["actions"]?.lenientArray(RawAppAction.init)
    }
}

private struct RawAppAction: Decodable {
    var key: String?
    var url_format: String?

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        key = container.lenient("key")
        url_format = container.lenient("url_format")
    }

    init(_ members: [String: PlainJSON]) {
        key = members["key"]?.string
        url_format = members["url_format"]?.string
    }
}

/// An array element that decodes to nil instead of failing the whole array. Decodable only
/// where its value is: a `Value: Decodable` requirement on the type itself would make the
/// runtime search every protocol conformance in the binary each time one is made (for each
/// of the five `Value`s, on every command that reads the catalog), even without JSONDecoder.
private struct Lenient<Value> {
    var value: Value?

    init(value: Value?) {
        self.value = value
    }
}

extension Lenient: Decodable where Value: Decodable {
    init(from decoder: Decoder) throws {
        value = try? decoder.singleValueContainer().decode(Value.self)
    }
}

extension PlainJSON {
    /// What `lenient` decodes for `[Lenient<Value>]`: nil unless an array; elements that are
    /// not what `element` reads become nil.
    fileprivate func lenientArray<Value>(_ element: (PlainJSON) -> Value?) -> [Lenient<Value>]? {
        guard case .array(let elements) = self else { return nil }
        return elements.map { Lenient(value: element($0)) }
    }

    /// For the object-shaped elements (parameters, actions, apps): nil unless an object.
    fileprivate func lenientArray<Value>(_ element: ([String: PlainJSON]) -> Value) -> [Lenient<Value>]? {
        lenientArray { (item: PlainJSON) -> Value? in
            guard case .object(let members) = item else { return nil }
            return element(members)
        }
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == AnyKey {
    fileprivate func lenient<T: Decodable>(_ key: String) -> T? {
        (try? decodeIfPresent(T.self, forKey: AnyKey(stringValue: key))) ?? nil
    }
}
