import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

@Suite struct JSONReaderTests {
    func parse(_ text: String) throws(JSONError) -> JSONValue { try JSONReader.parse(Array(text.utf8)) }

    func failure(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONReader.parse(bytes)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func readsEveryKindOfValue() throws {
        #expect(
            try parse(#" [ {"a": "x\"\\\/\b\f\n\r\t y", "b": [1, -20, 0, true, false, null], "c": {}, "é": "ü"}, [], "" ] "#)
                == .array([
                    .object([
                        ("a", .string("x\"\\/\u{8}\u{C}\n\r\t y")),
                        ("b", .array([.number("1"), .number("-20"), .number("0"), .bool(true), .bool(false), .null])),
                        ("c", .object([])),
                        ("é", .string("ü")),
                    ]),
                    .array([]),
                    .string(""),
                ]))
        #expect(
            try parse("{\"version\" : 1,\n  \"types\" : {\n\n  }\r\n}\n") == .object([("version", .number("1")), ("types", .object([]))]))
        #expect(try parse(#""\u0041\u00e9\u20AC\ud83d\ude00\u0000\uFFFF""#) == .string("Aé€😀\u{0}\u{FFFF}"))
        #expect(try parse("\"\u{7F}\u{85}\"") == .string("\u{7F}\u{85}"), "only U+0000 to U+001F must be escaped")
        // Numbers keep their text, in every form RFC 8259 has.
        let numbers = [
            "0", "-0", "1.5", "-2.25e+10", "1E3", "1e-07", "0.1000000000000000055511151231257827", "123456789012345678901234567890",
            "1e400",
        ]
        #expect(try parse("[" + numbers.joined(separator: ",") + "]") == .array(numbers.map(JSONValue.number)))
        #expect(try parse("5") == .number("5"))
        #expect(try parse(" null ") == .null)
        #expect(try parse("\u{FEFF}[1]") == .array([.number("1")]), "a UTF-8 byte order mark is skipped")
    }

    @Test func aRepeatedNameIsKeptAndTheFirstIsRead() throws {
        let value = try parse(#"{"a":1,"b":2,"a":"x"}"#)
        #expect(value == .object([("a", .number("1")), ("b", .number("2")), ("a", .string("x"))]))
        #expect(value["a"] == .number("1"))
        #expect(try parse(#"{"\u0061":1,"a":2}"#)["a"] == .number("1"))
    }

    @Test func nestingStopsAtTheLimit() throws {
        let limit = JSONReader.maximumDepth
        #expect(throws: Never.self) { try parse(String(repeating: "[", count: limit) + String(repeating: "]", count: limit)) }
        #expect(throws: Never.self) { try parse(String(repeating: #"{"a":"#, count: limit) + "1" + String(repeating: "}", count: limit)) }
        #expect(
            failure(Array((String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)).utf8))
                == "line 1, column \(limit + 1): more than 512 arrays and objects inside each other")
        #expect(failure(Array(String(repeating: "[{\"a\":", count: 100_000).utf8)) != nil)
    }

    @Test(arguments: [
        ("", "line 1, column 1: expected a value, found the end of the text"),
        ("   ", "line 1, column 4: expected a value, found the end of the text"),
        ("[", "line 1, column 2: expected a value, found the end of the text"),
        ("[1,]", "line 1, column 3: a comma before ']' (JSON allows none there)"),
        ("{\"a\":1 , }", "line 1, column 8: a comma before '}' (JSON allows none there)"),
        ("[1 2]", "line 1, column 4: expected ',' or ']' in an array, found '2'"),
        ("{\"a\" 1}", "line 1, column 6: expected ':' after a member name, found '1'"),
        ("{a:1}", "line 1, column 2: expected a member name in double quotes, found 'a'"),
        ("{\"a\":1}x", "line 1, column 8: expected the end of the text after the value, found 'x'"),
        ("[] []", "line 1, column 4: expected the end of the text after the value, found '['"),
        ("'a'", "line 1, column 1: expected a value, found '''"),
        ("\"\\x\"", "line 1, column 2: an escape that JSON does not have"),
        ("\"é\\u12\"", "line 1, column 7: expected 4 hexadecimal digits after \\u, found '\"'"),
        ("\"a", "line 1, column 1: a string that does not end (no closing '\"')"),
        ("\"tab\there\"", "line 1, column 5: a control character in a string (it must be written as an escape)"),
        ("\"\\ud800\"", "line 1, column 2: a \\u escape of a high surrogate without a low surrogate after it"),
        ("\"\\ud800\\u0041\"", "line 1, column 2: a \\u escape of a high surrogate without a low surrogate after it"),
        ("\"\\udc00\"", "line 1, column 2: a \\u escape of a low surrogate without a high surrogate before it"),
        ("1.", "line 1, column 3: expected a digit after the decimal point, found the end of the text"),
        (".5", "line 1, column 1: expected a value, found '.'"),
        ("1e+", "line 1, column 4: expected a digit in the exponent, found the end of the text"),
        ("-", "line 1, column 2: expected a digit in a number, found the end of the text"),
        ("-01", "line 1, column 3: a number starts with 0 and more digits"),
        ("+1", "line 1, column 1: expected a value, found '+'"),
        ("NaN", "line 1, column 1: expected a value, found 'N'"),
        ("tru", "line 1, column 1: expected a value, found 't'"),
        ("[true false]", "line 1, column 7: expected ',' or ']' in an array, found 'f'"),
        ("// c\n[]", "line 1, column 1: expected a value, found '/'"),
        ("[]\u{0B}", "line 1, column 3: expected the end of the text after the value, found the byte 0x0B"),
        ("\u{FEFF}\u{FEFF}[]", "line 1, column 2: expected a value, found the byte 0xEF"),
        ("{\n  \"types\": {\n    \"browser\": [\"a\",,\n", "line 3, column 21: expected a value, found ','"),
    ])
    func rejectsWhatIsNotJSONAndSaysWhere(text: String, message: String) {
        #expect(failure(Array(text.utf8)) == message)
    }

    @Test func rejectsTextThatIsNotUTF8() {
        #expect(failure([0x22, 0xC3, 0x22]) == "line 1, column 1: a string that is not valid UTF-8")
        #expect(failure([0x22, 0xED, 0xA0, 0x80, 0x22]) != nil, "an encoded surrogate")
        #expect(failure([0x22, 0xC0, 0x80, 0x22]) != nil, "an overlong encoding")
        #expect(failure([0x5B, 0xFF, 0x5D]) == "line 1, column 2: expected a value, found the byte 0xFF")
        #expect(failure([0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00])?.contains("UTF-16 or UTF-32") == true)
        #expect(failure([0x5B, 0x00, 0x5D, 0x00]) != nil)
    }

    /// `double` and `int` answer as `JSONDecoder` does for Double and Int (found by asking it).
    @Test(
        arguments: [
            ("1", 1.0, 1), ("1.0", 1.0, 1), ("1e2", 100.0, 100), ("1.5", 1.5, nil), ("-0", -0.0, 0), ("0.1e1", 1.0, 1),
            ("9223372036854775807", 9.223372036854775807e18, Int.max), ("9223372036854775808", 9.223372036854775808e18, nil),
            ("1e19", 1e19, nil), ("1e400", nil, nil), ("-1e400", nil, nil), ("1e-400", nil, nil), ("2e-324", nil, nil),
            ("3e-324", Double.leastNonzeroMagnitude, nil), ("0e-400", 0.0, 0), ("0.0e999", 0.0, 0),
            ("1.7976931348623158e308", .greatestFiniteMagnitude, nil),
            ("1.7976931348623159e308", nil, nil),
        ] as [(String, Double?, Int?)])
    func numbersConvertAsJSONDecoderConverts(text: String, double: Double?, int: Int?) {
        let value = JSONValue.number(text)
        #expect(value.double == double)
        #expect(value.double?.sign == double?.sign)
        #expect(value.int == int)
    }

    @Test func writesOneLineOrIndented() throws {
        let value = JSONValue.object([
            ("s", .string("a\"\\/\n\r\t\u{1}\u{7F}\u{9B}\u{2028}é😀")), ("n", .int(-3)), ("d", .double(0.25)), ("inf", .double(.infinity)),
            ("e", .object([])), ("a", .array([.bool(true), .null, .array([])])),
        ])
        #expect(value.rendered() == #"{"s":"a\"\\/\n\r\t\u0001\u007f\u009b\u2028é😀","n":-3,"d":0.25,"inf":null,"e":{},"a":[true,null,[]]}"#)
        #expect(
            value.rendered(indented: true) == """
                {
                  "s" : "a\\"\\\\/\\n\\r\\t\\u0001\\u007f\\u009b\\u2028é😀",
                  "n" : -3,
                  "d" : 0.25,
                  "inf" : null,
                  "e" : {},
                  "a" : [
                    true,
                    null,
                    []
                  ]
                }
                """)
        #expect(try JSONReader.parse(Array(value.rendered().utf8)) == value)
        #expect(try JSONReader.parse(Array(value.rendered(indented: true).utf8)) == value)
        #expect(
            JSONValue.object(sortedByName: ["b": .null, "B": .null, "a10": .null, "a9": .null, "_": .null]).rendered()
                == #"{"B":null,"_":null,"a10":null,"a9":null,"b":null}"#)
    }

    @Test func shapesNameWhereAValueIsWrong() throws {
        struct Record: Equatable {
            var name: String
            var size: Double?
            var tags: [String: [String]]
        }
        func read(_ text: String) throws(JSONError) -> Record {
            let fields = try JSONFields(try parse(text))
            return Record(
                name: try fields.required("name", .string), size: try fields.optional("size", .double),
                tags: try fields.optional("tags", .dictionary(of: .array(of: .string))) ?? [:]
            )
        }
        #expect(
            try read(#"{"name":"n","size":null,"tags":{"a":["x"],"a":[1]},"other":[]}"#) == Record(name: "n", size: nil, tags: ["a": ["x"]])
        )
        #expect(try read(#"{"name":"n","size":2}"#) == Record(name: "n", size: 2, tags: [:]))
        for (text, message) in [
            (#"[]"#, "the document should be an object"),
            (#"{}"#, "'name' is missing"),
            (#"{"name":null}"#, "'name' should be a string"),
            (#"{"name":"n","size":"2"}"#, "'size' should be a number within a Double's range"),
            (#"{"name":"n","size":1e999}"#, "'size' should be a number within a Double's range"),
            (#"{"name":"n","tags":{"a":["x",null]}}"#, "'tags.a[1]' should be a string"),
            (#"{"name":"n","tags":[]}"#, "'tags' should be an object"),
        ] {
            #expect(throws: JSONError.self, "\(text)") { try read(text) }
            do {
                _ = try read(text)
            } catch {
                #expect(error.description == message)
            }
        }
    }
}

/// A JSON value as Foundation reads it, to hold the reader against `JSONDecoder` (which reads
/// every string, number and name only when it is decoded, so this decodes them all) and
/// `JSONSerialization`.
private indirect enum FoundationJSON: Decodable, Equatable {
    case string(String)
    /// Nil for a number Foundation will not convert to a Double.
    case number(Double?)
    case bool(Bool)
    case null
    case array([FoundationJSON])
    case object([String: FoundationJSON])

    private struct Name: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// A container of the wrong kind is a type mismatch; any other error is a text that
    /// JSONDecoder does not read.
    init(from decoder: Decoder) throws {
        do {
            let object = try decoder.container(keyedBy: Name.self)
            var members: [String: FoundationJSON] = [:]
            for name in object.allKeys { members[name.stringValue] = try object.decode(FoundationJSON.self, forKey: name) }
            self = .object(members)
            return
        } catch DecodingError.typeMismatch {} catch DecodingError.valueNotFound {}
        do {
            var array = try decoder.unkeyedContainer()
            var elements: [FoundationJSON] = []
            while !array.isAtEnd { elements.append(try array.decode(FoundationJSON.self)) }
            self = .array(elements)
            return
        } catch DecodingError.typeMismatch {} catch DecodingError.valueNotFound {}
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
            return
        }
        do {
            self = .bool(try value.decode(Bool.self))
            return
        } catch DecodingError.typeMismatch {}
        do {
            self = .string(try value.decode(String.self))
            return
        } catch DecodingError.typeMismatch {}
        do {
            self = .number(try value.decode(Double.self))
        } catch {
            // Not a string, so a number, which it will not convert.
            self = .number(nil)
        }
    }

    init?(serialized object: Any) {
        switch object {
        case let string as String: self = .string(string)
        case is NSNull: self = .null
        case let number as NSNumber where String(cString: number.objCType) == "c": self = .bool(number.boolValue)
        case let number as NSNumber: self = .number(number.doubleValue)
        case let array as [Any]:
            var elements: [FoundationJSON] = []
            for element in array {
                guard let value = FoundationJSON(serialized: element) else { return nil }
                elements.append(value)
            }
            self = .array(elements)
        case let object as [String: Any]:
            var members: [String: FoundationJSON] = [:]
            for (name, member) in object {
                guard let value = FoundationJSON(serialized: member) else { return nil }
                members[name] = value
            }
            self = .object(members)
        default: return nil
        }
    }

    /// The same as what JSONSerialization read, but for its quirks: it drops some U+FEFF from
    /// strings and names, and rounds a number of more than 17 digits to within a few units in
    /// the last place of the nearest Double (JSONDecoder gets the nearest).
    func isSerialized(as other: FoundationJSON) -> Bool {
        func withoutFEFF(_ text: String) -> String { String(text.unicodeScalars.filter { $0 != "\u{FEFF}" }) }
        switch (self, other) {
        case (.string(let a), .string(let b)): return withoutFEFF(a) == withoutFEFF(b)
        case (.number(let a?), .number(let b?)): return a == b || abs(a - b) <= 4 * a.ulp
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.isSerialized(as: $1) }
        case (.object(let a), .object(let b)):
            let theirs = Dictionary(b.map { (withoutFEFF($0.key), $0.value) }) { first, _ in first }
            return a.count == theirs.count && a.allSatisfy { name, value in theirs[withoutFEFF(name)].map(value.isSerialized(as:)) == true }
        default: return self == other
        }
    }

    /// Ours as JSONDecoder reads it: the first of a repeated name.
    init(_ value: JSONValue) {
        switch value {
        case .string(let string): self = .string(string)
        case .number: self = .number(value.double)
        case .bool(let bool): self = .bool(bool)
        case .null: self = .null
        case .array(let elements): self = .array(elements.map(FoundationJSON.init))
        case .object(let members):
            var object: [String: FoundationJSON] = [:]
            for (name, member) in members where object[name] == nil { object[name] = FoundationJSON(member) }
            self = .object(object)
        }
    }
}

@Suite struct JSONReaderDifferentialTests {
    /// Every fuzz corpus (JSON and not), the catalogs, and cuts of each catalog corpus input.
    static func inputs() throws -> [(name: String, bytes: [UInt8])] {
        var inputs: [(String, [UInt8])] = []
        let root = Sandbox.packageRoot
        var directories = ["catalog/app-data", "Tests/Fixtures/choosy-data", "Tests/Fixtures/choosy-data/app-data"]
        for target in try FileManager.default.contentsOfDirectory(atPath: root + "/fuzz/corpus") {
            directories.append("fuzz/corpus/" + target)
        }
        for directory in directories {
            for name in try FileManager.default.contentsOfDirectory(atPath: root + "/" + directory).sorted() {
                let path = directory + "/" + name
                guard let data = FileManager.default.contents(atPath: root + "/" + path) else { continue }
                let bytes = Array(data)
                inputs.append((path, bytes))
                guard directory.hasSuffix("/catalog") || directory.hasSuffix("/json") || name.hasSuffix(".json") else { continue }
                // Cuts land inside strings, escapes, numbers and UTF-8 sequences.
                for cut in stride(from: 1, to: bytes.count, by: max(1, bytes.count / 7)) {
                    inputs.append(("\(path) cut at \(cut)", Array(bytes[..<cut])))
                    inputs.append(("\(path) without byte \(cut)", Array(bytes[..<cut] + bytes[(cut + 1)...])))
                }
            }
        }
        return inputs
    }

    /// Where Foundation accepts what RFC 8259 does not (see `JSONReader`): a comma before `]`
    /// or `}`, UTF-16 and UTF-32, and for JSONDecoder a member name of invalid UTF-8 that
    /// nothing decodes (in some places), a malformed number that is the whole text (`1.`,
    /// `-`, `04`, `5e`, `1-400`), and a number that ends in its decimal point anywhere (`[1.]`,
    /// found in the site-rules fuzz corpus).
    static func isKnownLeniency(_ error: JSONError, of bytes: [UInt8]) -> Bool {
        let isBareNumber = bytes.allSatisfy { Array("0123456789+-.eE \t\r\n".utf8).contains($0) }
        return error.reason.hasPrefix("a comma before") || error.reason.contains("UTF-16 or UTF-32") || bytes.prefix(4).contains(0)
            || error.reason == "a string that is not valid UTF-8" || isBareNumber
            || error.reason.hasPrefix("expected a digit after the decimal point")
    }

    /// JSONDecoder refuses to convert a few spellings of zero with an exponent (`0e1`, `0E3`,
    /// though not `-0e1` or `0e999`) to a Double.
    static func isZeroWithExponent(_ value: JSONValue) -> Bool {
        guard case .number(let text) = value, value.double == 0 else { return false }
        return text.contains { $0 == "e" || $0 == "E" }
    }

    @Test func acceptsRejectsAndReadsAsJSONDecoderDoes() throws {
        var compared = (accepted: 0, rejected: 0, lenient: 0)
        for (name, bytes) in try Self.inputs() {
            let ours = Result { () throws(JSONError) in try JSONReader.parse(bytes) }
            let theirs = Result { try JSONDecoder().decode(FoundationJSON.self, from: Data(bytes)) }
            switch (ours, theirs) {
            case (.success(let value), .success(let expected)):
                compared.accepted += 1
                guard !Self.hasNumbers(value, where: Self.isZeroWithExponent) else { continue }
                #expect(FoundationJSON(value) == expected, "\(name)")
            case (.failure, .failure):
                compared.rejected += 1
            case (.failure(let error), .success):
                compared.lenient += 1
                #expect(Self.isKnownLeniency(error, of: bytes), "\(name): JSONDecoder reads it, but \(error)")
            case (.success, .failure(let error)):
                Issue.record("\(name): JSONDecoder does not read it (\(error))")
            }
        }
        #expect(compared.accepted > 400 && compared.rejected > 2000, "\(compared)")
    }

    @Test func acceptsRejectsAndReadsAsJSONSerializationDoes() throws {
        for (name, bytes) in try Self.inputs() {
            let ours = Result { () throws(JSONError) in try JSONReader.parse(bytes) }
            let theirs = Result { try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) }
            switch (ours, theirs) {
            case (.success(let value), .success(let object)):
                // JSONSerialization keeps the last of a repeated name, and makes 0 of a number
                // too small for a Double.
                guard !Self.hasRepeatedNames(value), !Self.hasNumbers(value, where: { $0.double == nil }) else { continue }
                let serialized = try #require(FoundationJSON(serialized: object), "\(name)")
                #expect(FoundationJSON(value).isSerialized(as: serialized), "\(name)")
            case (.failure, .failure):
                break
            case (.failure(let error), .success):
                #expect(Self.isKnownLeniency(error, of: bytes), "\(name): JSONSerialization reads it, but \(error)")
            case (.success(let value), .failure(let error)):
                // It refuses a number too large for a Double.
                #expect(Self.hasNumbers(value, where: { $0.double == nil }), "\(name): JSONSerialization does not read it (\(error))")
            }
        }
    }

    static func hasRepeatedNames(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let elements): return elements.contains(where: hasRepeatedNames)
        case .object(let members): return Set(members.map(\.0)).count < members.count || members.contains { hasRepeatedNames($0.1) }
        default: return false
        }
    }

    static func hasNumbers(_ value: JSONValue, where condition: (JSONValue) -> Bool) -> Bool {
        switch value {
        case .number: return condition(value)
        case .array(let elements): return elements.contains { hasNumbers($0, where: condition) }
        case .object(let members): return members.contains { hasNumbers($0.1, where: condition) }
        default: return false
        }
    }
}

/// The files choosy reads and writes that are not the catalog.
@Suite struct JSONFilesTests {
    let sandbox = Sandbox()

    @Test func theInstallerRecordReadsAsJSONEncoderWroteIt() throws {
        let written = """
            {
              "createdFile" : true,
              "handlers" : {
                "x-scheme-handler\\/http" : "a.desktop"
              },
              "listed" : {
                "x" : [

                ],
                "x-scheme-handler\\/http" : [
                  "a.desktop"
                ]
              }
            }

            """
        var record = LinkHandlerInstaller.Record()
        record.listed = ["x-scheme-handler/http": ["a.desktop"], "x": []]
        record.handlers = ["x-scheme-handler/http": "a.desktop"]
        record.createdFile = true
        #expect(try LinkHandlerInstaller.Record(json: JSONReader.parse(Array(written.utf8))) == record)
        record.lines = ["x-scheme-handler/http": "x-scheme-handler/http=a.desktop;"]
        #expect(try LinkHandlerInstaller.Record(json: JSONReader.parse(Array(record.json.rendered(indented: true).utf8))) == record)
        #expect(throws: JSONError(shape: "is missing").inside("handlers")) {
            try LinkHandlerInstaller.Record(json: JSONReader.parse(Array(#"{"listed":{}}"#.utf8)))
        }
    }

    @Test(arguments: [
        ("{not json", "line 1, column 2: expected a member name in double quotes, found 'n'"),
        ("{\n  \"schemes\": [\"a\",],\n}", "line 2, column 18: a comma before ']' (JSON allows none there)"),
        (#"{"schemes": "myapp"}"#, "'schemes' should be an array"),
        (#"{"picker": 5}"#, "'picker' should be a string"),
        (#"{"running": "always"}"#, #"'running' should be one of "mark", "first", "use""#),
        (#"["fzf"]"#, "the document should be an object"),
        ("", "line 1, column 1: expected a value, found the end of the text"),
    ])
    func aConfigFileThatCannotBeReadSaysWhereAndWhyAndTheDefaultsStand(contents: String, reason: String) {
        let path = sandbox.write(sandbox.configHome + "/choosy/config.json", contents)
        let diagnostics = RecordingDiagnostics()
        let warnings = CorruptFileWarnings(diagnostics: diagnostics)
        for _ in 0..<2 {
            #expect(
                Configuration.load(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem(), warnings: warnings)
                    == Configuration())
        }
        #expect(diagnostics.warnings == ["\(path) is not valid (\(reason)): using the default settings until it is fixed"])
        #expect(sandbox.read(path) == contents)
    }

    @Test func aConfigFileReads() throws {
        sandbox.write(
            sandbox.configHome + "/choosy/config.json",
            #"{"catalog_url":"https://example.org/c","schemes":["myapp"],"picker":null,"other":1,"running":"first","new_window_here":true}"#
        )
        let warnings = CorruptFileWarnings(diagnostics: RecordingDiagnostics())
        var read = Configuration.load(environment: sandbox.choosyEnvironment, fileSystem: LocalFileSystem(), warnings: warnings)
        #expect(read.unknown.names == ["other"])
        read.unknown = UnknownJSONMembers()
        #expect(read == Configuration(catalogURL: "https://example.org/c", schemes: ["myapp"], running: .first, newWindowHere: true))
        #expect(
            !Configuration().asksWhatRuns && Configuration(running: .mark).asksWhatRuns && Configuration(newWindowHere: true).asksWhatRuns)
    }

    /// SPEC §7: one warning names the members this choosy does not know, with the member a near
    /// miss may have meant; they are kept, in order, for a rewrite.
    @Test func unknownConfigMembersGetOneWarningWithTheirNearMisses() throws {
        let text = #"{"pickr": "fzf", "clean_link": true, "colour\n": 1, "schemes": []}"#
        let configuration = try Configuration(json: JSONReader.parse(Array(text.utf8)))
        #expect(configuration.unknown.names == ["pickr", "clean_link", "colour\n"])
        #expect(
            configuration.unknownMembersWarning(path: "/c.json")
                == "/c.json: unknown members 'pickr' (did you mean 'picker'?), 'clean_link' (did you mean 'clean_links'?), 'colour\\u{A}', ignored"
        )
        #expect(try Configuration(json: JSONReader.parse(Array(#"{"picker": "fzf"}"#.utf8))).unknownMembersWarning(path: "/c.json") == nil)
    }
}
