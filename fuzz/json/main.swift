@testable import ChoosyKit

// Every file choosy reads goes through JSONReader. Reading must survive any bytes; what it
// accepts must come back the same through the writer (one line and indented), nested no
// deeper than the limit, which holds exactly; what it rejects must say a place in the text.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let value: JSONValue
    do {
        value = try JSONReader.parse(input.bytes)
    } catch {
        let lines = input.bytes.count(where: { $0 == 0x0A }) + 1
        invariant(
            error.line.map { $0 >= 1 && $0 <= lines } == true && (error.column ?? 0) >= 1,
            "a syntax error without a place in the text: \(error)")
        invariant((try? JSONReader.parse(input.bytes)) == nil, "read on the second try")
        return 0
    }
    invariant((try? JSONReader.parse(input.bytes)) == value, "a second read gives another value")

    for indented in [false, true] {
        let text = value.rendered(indented: indented)
        invariant(
            !text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
            "a control character written raw")
        do {
            let again = try JSONReader.parse(Array(text.utf8))
            invariant(again == value, "written and read again, the value changed: \(text)")
        } catch {
            invariant(false, "cannot read what was written (\(error)): \(text)")
        }
    }

    let depth = nesting(value)
    invariant(depth <= JSONReader.maximumDepth, "nested \(depth) deep")
    // The limit is exact: wrapped up to the limit it reads, one more is an error.
    let room = JSONReader.maximumDepth - depth
    let text = input.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(input.bytes.dropFirst(3)) : input.bytes  // a BOM only leads
    func wrapped(_ count: Int) -> [UInt8] {
        Array(repeating: UInt8(ascii: "["), count: count) + text + Array(repeating: UInt8(ascii: "]"), count: count)
    }
    invariant((try? JSONReader.parse(wrapped(room))) != nil, "\(depth) deep in \(room) arrays does not read")
    do {
        _ = try JSONReader.parse(wrapped(room + 1))
        invariant(false, "\(depth) deep in \(room + 1) arrays reads")
    } catch {
        invariant(error.reason.hasPrefix("more than"), "\(depth) deep in \(room + 1) arrays: \(error)")
    }

    checkNumbers(value)
    return 0
}

/// How many arrays and objects the deepest value is inside, itself included.
private func nesting(_ value: JSONValue) -> Int {
    switch value {
    case .array(let elements): return 1 + (elements.map(nesting).max() ?? 0)
    case .object(let members): return 1 + (members.map { nesting($0.1) }.max() ?? 0)
    default: return 0
    }
}

/// A number that is an Int is a Double too, and the Double of an Int's text is that Int's.
private func checkNumbers(_ value: JSONValue) {
    switch value {
    case .number(let text):
        if let int = value.int {
            invariant(value.double != nil, "\(text) is an Int but not a Double")
            if !text.contains(where: { ".eE".contains($0) }) { invariant(String(int) == text || text == "-0", "\(text) read as \(int)") }
        }
        if let double = value.double { invariant(double.isFinite, "\(text) read as \(double)") }
    case .array(let elements): elements.forEach(checkNumbers)
    case .object(let members): members.forEach { checkNumbers($0.1) }
    default: break
    }
}
