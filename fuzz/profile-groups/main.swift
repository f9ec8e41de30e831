import Glibc
import LibFuzzer

@testable import ChoosyKit

// A profile group store (`Profile Groups/<StoreID>.sqlite`) is a SQLite database that anything
// running as the user, or a copied home, can leave in any shape (doc/security.md, "Profile
// group stores"). Each input is a whole database file, written where the real reader
// (libsqlite3) reads it as choosy reads a store. The mutator below changes it page by page,
// as a database is corrupted or crafted: the bytes of one page, one page over another, a page
// dropped or added, a field of a b-tree page or of the header set to an edge value.

/// The file the reader is given, in a directory of its own: nothing else may appear beside it.
/// Both are removed when the run ends (not after a crash, whose input libFuzzer keeps).
private let directory: String = {
    var template = Array("/tmp/choosy-fuzz-profile-groups-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    invariant(made != nil, "mkdtemp failed")
    atexit {
        unlink(store)
        rmdir(directory)
    }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}()
private let store = directory + "/store.sqlite"
private let reader = SQLiteLibraryReader()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfileGroups(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fd = open(store, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    invariant(fd >= 0, "cannot write \(store)")
    if let data, size > 0 { invariant(write(fd, data, size) == size, "short write") }
    close(fd)

    let limits = FirefoxProfileGroup.limits
    func read() -> (rows: [[String?]]?, error: String?, seconds: Double) {
        let start = monotonicSeconds()
        do {
            let rows = try reader.rows(of: FirefoxProfileGroup.table, columns: FirefoxProfileGroup.columns, in: store, within: limits)
            return (rows, nil, monotonicSeconds() - start)
        } catch {
            return (nil, error.description, monotonicSeconds() - start)
        }
    }
    let first = read()
    let second = read()
    invariant(
        first.rows == second.rows && first.error == second.error,
        "reading is not deterministic: \(first.error ?? "rows") / \(second.error ?? "rows")")
    // The progress handler stops a read at its limit; far past it is a read it cannot stop.
    invariant(first.seconds < limits.seconds + 2, "a read took \(first.seconds) s")
    // Immutable and read-only: no journal, WAL or shared memory, no temporary file beside it.
    invariant(
        LocalFileSystem().list(directory) == ["store.sqlite"],
        "files beside the store: \(LocalFileSystem().list(directory) ?? [])")
    if let error = first.error {
        invariant(!error.isEmpty && error.count <= 200, "the error '\(error)'")
    }
    guard let rows = first.rows else { return 0 }
    invariant(rows.count <= limits.rows, "\(rows.count) rows")
    invariant(rows.allSatisfy { $0.count == FirefoxProfileGroup.columns.count }, "a row without its three columns")
    let bytes = rows.reduce(0) { sum, row in sum + row.reduce(0) { $0 + ($1?.utf8.count ?? 0) } }
    invariant(bytes <= limits.totalBytes, "\(bytes) bytes of values")
    checkProfileGroupRows(rows)
    return 0
}

// MARK: Page-level mutation

/// A small random number generator seeded by libFuzzer, so a mutation can be replayed.
private struct Seeded {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return bound <= 0 ? 0 : Int((state >> 33) % UInt64(bound))
    }
}

@_cdecl("LLVMFuzzerCustomMutator")
public func mutateProfileGroup(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let data, size >= 100 else { return LLVMFuzzerMutate(data, size, maxSize) }
    var random = Seeded(state: UInt64(seed) | 1 << 40)
    // The page size of the header (bytes 16–17, big-endian; 1 means 65,536); anything else, the whole file is one page.
    let written = Int(data[16]) << 8 | Int(data[17])
    let pageSize = written == 1 ? 65536 : written >= 512 && written & (written - 1) == 0 && written <= size ? written : size
    let pages = max(1, size / pageSize)
    let page = random.next(pages)
    let start = page * pageSize
    let length = min(pageSize, size - start)
    func put32(_ value: UInt32, at offset: Int) {
        guard offset + 4 <= size else { return }
        for index in 0..<4 { data[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(index))) }
    }
    let edges: [UInt32] = [0, 1, 2, UInt32(pages), UInt32(pages + 1), 0x7FFF_FFFF, 0xFFFF_FFFF, UInt32(random.next(pages + 2))]
    switch random.next(7) {
    case 0:
        // The bytes of one page, which keeps its size.
        let kept = LLVMFuzzerMutate(data + start, length, length)
        if kept < length { (data + start + kept).initialize(repeating: 0, count: length - kept) }
        return size
    case 1:
        // One page over another.
        let source = random.next(pages) * pageSize
        (data + start).update(from: data + source, count: min(length, size - source))
        return size
    case 2:
        // The last page dropped, or a copy of this one added.
        if random.next(2) == 0, pages > 1 { return (pages - 1) * pageSize }
        guard size + length <= maxSize else { return size }
        (data + size).update(from: data + start, count: length)
        return size + length
    case 3:
        // A field of a b-tree page's header (after the file header on page 1): the first
        // freeblock, the number of cells, the start of the cell content, the rightmost child.
        let header = page == 0 ? 100 : start
        let field = [1, 3, 5, 8][random.next(4)]
        put32(edges[random.next(edges.count)], at: header + field)
        return size
    case 4:
        // A cell pointer of that page.
        let header = page == 0 ? 100 : start
        let pointer = header + 12 + 2 * random.next(16)
        if pointer + 1 < size {
            let value = random.next(pageSize + 2)
            data[pointer] = UInt8(truncatingIfNeeded: value >> 8)
            data[pointer + 1] = UInt8(truncatingIfNeeded: value)
        }
        return size
    case 5:
        // A field of the file header: the page count, the freelist, the schema cookie and
        // format, the text encoding, the read and write versions (18–19), the page size.
        let offset = [28, 32, 36, 40, 44, 52, 56, 64][random.next(8)]
        switch random.next(3) {
        case 0: put32(edges[random.next(edges.count)], at: offset)
        case 1: data[56 + 3] = UInt8(random.next(5))
        default:
            data[18 + random.next(2)] = UInt8(random.next(4))
            if random.next(4) == 0 {
                data[16] = UInt8(random.next(256))
                data[17] = UInt8(random.next(256))
            }
        }
        return size
    default:
        return LLVMFuzzerMutate(data, size, maxSize)
    }
}
