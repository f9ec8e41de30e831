import ChoosyTestSupport
import Foundation
import Testing

@testable import ChoosyKit

/// The parsed rules kept between commands (doc/links-and-rules.md, "Clean links"), on real files.
@Suite struct CleaningRulesCacheTests {
    let sandbox = Sandbox()
    let fileSystem = LocalFileSystem()
    var cache: CleaningRulesCache { CleaningRulesCache(path: sandbox.cacheHome + "/choosy/clean/parsed.rules", fileSystem: fileSystem) }

    private func key(of path: String) -> CleaningRulesCache.Key? {
        FileManager.default.contents(atPath: path).map { CleaningRulesCache.key(path, Array($0)) }
    }

    private func rules(_ path: String) throws -> ClearURLsRuleFile {
        try ClearURLsRuleFile(parsing: Array(FileManager.default.contents(atPath: path) ?? Data()), source: path)
    }

    @Test func theBundledRulesReadBackAsTheyWere() throws {
        let paths = ["data.min.json", "choosy.json"].map { Sandbox.packageRoot + "/clean/" + $0 }
        let files = try paths.map(rules)
        let keys = paths.compactMap(key(of:))
        #expect(keys.count == 2)
        try cache.store(files, for: keys)
        let cached = try #require(cache.load(for: keys))
        #expect(cached.map(\.source) == paths && cached.map(\.providers) == files.map(\.providers))
        #expect(cached.map(\.warnings) == files.map(\.warnings))
    }

    @Test func aChangedFileOrAnotherListOfFilesIsNotAnswered() throws {
        let path = sandbox.configHome + "/choosy/clean/mine.json"
        sandbox.write(path, #"{"providers":{"mine":{"urlPattern":"^https?://example\\.net","rules":["a"]}}}"#)
        let keys = [try #require(key(of: path))]
        try cache.store([try rules(path)], for: keys)
        #expect(cache.load(for: keys)?.first?.providers.first?.rules == ["a"])
        #expect(cache.load(for: []) == nil)
        // Rewritten in place, to the same size.
        sandbox.write(path, #"{"providers":{"mine":{"urlPattern":"^https?://example\\.net","rules":["b"]}}}"#)
        #expect(cache.load(for: [try #require(key(of: path))]) == nil)
    }

    @Test func aTornOrForeignCacheIsNotUsed() throws {
        let path = Sandbox.packageRoot + "/clean/choosy.json"
        let keys = [try #require(key(of: path))]
        let whole = CleaningRulesCache.encode([try rules(path)], keys)
        for bytes in [Array(whole.dropLast()), whole + [0x30], Array(whole.prefix(whole.count / 2)), Array("{}".utf8), []] {
            sandbox.write(cache.path, String(decoding: bytes, as: UTF8.self))
            #expect(cache.load(for: keys) == nil)
        }
    }
}
