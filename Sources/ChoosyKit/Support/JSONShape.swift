/// How a file's JSON value is read as one Swift type, strictly: the kinds of value that
/// `JSONDecoder` would decode as that type, and an error naming where in the document
/// anything else is. (The catalog is read leniently instead: see `CatalogDecoder`.)
struct JSONShape<Value> {
    let read: (JSONValue) throws(JSONError) -> Value

    init(_ read: @escaping (JSONValue) throws(JSONError) -> Value) {
        self.read = read
    }

    /// An array whose every element is an `element`.
    static func array<Element>(of element: JSONShape<Element>) -> JSONShape where Value == [Element] {
        JSONShape { value throws(JSONError) in
            guard case .array(let values) = value else { throw JSONError(shape: "should be an array") }
            var result: [Element] = []
            result.reserveCapacity(values.count)
            for (index, item) in values.enumerated() {
                do throws(JSONError) {
                    result.append(try element.read(item))
                } catch {
                    throw error.inside("[\(index)]")
                }
            }
            return result
        }
    }

    /// An object read as a dictionary: each member's value an `element`, the first member of
    /// a name winning (a later one is not read at all).
    static func dictionary<Element>(of element: JSONShape<Element>) -> JSONShape where Value == [String: Element] {
        JSONShape { value throws(JSONError) in
            guard case .object(let members) = value else { throw JSONError(shape: "should be an object") }
            var result: [String: Element] = [:]
            for (name, member) in members where result[name] == nil {
                do throws(JSONError) {
                    result[name] = try element.read(member)
                } catch {
                    throw error.inside(name)
                }
            }
            return result
        }
    }
}

extension JSONShape where Value == String {
    static var string: JSONShape { JSONShape(expecting: "a string") { $0.stringValue } }
}

extension JSONShape where Value == Double {
    static var double: JSONShape { JSONShape(expecting: "a number within a Double's range") { $0.double } }
}

extension JSONShape where Value == Int {
    static var int: JSONShape { JSONShape(expecting: "a whole number") { $0.int } }
}

extension JSONShape where Value == Bool {
    static var bool: JSONShape {
        JSONShape(expecting: "true or false") { value in
            if case .bool(let bool) = value { return bool }
            return nil
        }
    }
}

extension JSONShape where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the strings an enumeration's cases stand for. (The list is put together only for
    /// the error: every config file with any member reads this shape.)
    static var oneOf: JSONShape {
        JSONShape(expecting: "one of " + Value.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")) {
            $0.stringValue.flatMap(Value.init(rawValue:))
        }
    }
}

extension JSONShape {
    /// A value that `convert` reads; any other `should be` what `kind` says.
    fileprivate init(expecting kind: @escaping @autoclosure () -> String, _ convert: @escaping (JSONValue) -> Value?) {
        self.init { value throws(JSONError) in
            guard let result = convert(value) else { throw JSONError(shape: "should be \(kind())") }
            return result
        }
    }
}

/// The members of one object, read as the stored properties of a `Decodable` struct are: a
/// required field must be there and not null, an optional one may be missing or null, and
/// members nobody asks for are ignored.
package struct JSONFields {
    /// The object's members, taken out of it once for the lookups of its fields.
    private let members: [(String, JSONValue)]

    init(_ value: JSONValue) throws(JSONError) {
        guard case .object(let members) = value else { throw JSONError(shape: "should be an object") }
        self.members = members
    }

    /// The first member named `name`, as `JSONValue`'s subscript finds it.
    private func member(_ name: String) -> JSONValue? {
        members.first { $0.0 == name }?.1
    }

    func required<Value>(_ name: String, _ shape: JSONShape<Value>) throws(JSONError) -> Value {
        guard let member = member(name) else { throw JSONError(shape: "is missing").inside(name) }
        return try read(member, name, shape)
    }

    func optional<Value>(_ name: String, _ shape: JSONShape<Value>) throws(JSONError) -> Value? {
        guard let member = member(name) else { return nil }
        if case .null = member { return nil }
        return try read(member, name, shape)
    }

    /// The members none of `known` names, in order: a rewrite puts them back, so a file a newer
    /// choosy wrote keeps what this one does not understand. `known` is a few names, compared
    /// in turn (hashing each member's name cost more than reading a rule of rules.json).
    func unknownMembers(known: [String]) -> UnknownJSONMembers {
        UnknownJSONMembers(members: members.filter { !known.contains($0.0) })
    }

    private func read<Value>(_ member: JSONValue, _ name: String, _ shape: JSONShape<Value>) throws(JSONError) -> Value {
        do throws(JSONError) {
            return try shape.read(member)
        } catch {
            throw error.inside(name)
        }
    }
}

/// The members of a stored object that this choosy does not know (see
/// `JSONFields.unknownMembers`), written back after the ones it does.
package struct UnknownJSONMembers: Equatable, Sendable {
    var members: [(String, JSONValue)] = []

    /// Their names, in order.
    package var names: [String] { members.map(\.0) }

    /// `known` followed by these members.
    func object(after known: [(String, JSONValue)]) -> JSONValue {
        .object(known + members)
    }

    package static func == (lhs: UnknownJSONMembers, rhs: UnknownJSONMembers) -> Bool {
        JSONValue.object(lhs.members) == JSONValue.object(rhs.members)
    }
}

extension JSONShape {
    /// An array whose elements are `element`s; with `skippingFailures` (a file of a newer
    /// version, read as far as understood) an element that is not one is left out.
    static func array<Element>(of element: JSONShape<Element>, skippingFailures: Bool) -> JSONShape where Value == [Element] {
        guard skippingFailures else { return array(of: element) }
        return JSONShape { value throws(JSONError) in
            guard case .array(let values) = value else { throw JSONError(shape: "should be an array") }
            return values.compactMap { try? element.read($0) }
        }
    }

    /// `dictionary(of:)`, leaving out, with `skippingFailures`, a member that is not an `element`.
    static func dictionary<Element>(of element: JSONShape<Element>, skippingFailures: Bool) -> JSONShape where Value == [String: Element] {
        guard skippingFailures else { return dictionary(of: element) }
        return JSONShape { value throws(JSONError) in
            guard case .object(let members) = value else { throw JSONError(shape: "should be an object") }
            var result: [String: Element] = [:]
            for (name, member) in members where result[name] == nil {
                if let read = try? element.read(member) { result[name] = read }
            }
            return result
        }
    }
}
