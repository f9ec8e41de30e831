import ChoosyTestSupport
import Foundation
import Testing

/// Many choosy processes at once, as when links are clicked in quick succession: preferences
/// are changed under a lock and downloads happen once (doc/configuration.md, doc/desktop.md).
@Suite struct ConcurrencyTests {
    /// Every process of `commands` started at once; their outputs in the same order.
    static func runAtOnce(_ sandbox: Sandbox, _ commands: [[String]]) async -> [Sandbox.Output] {
        await withTaskGroup(of: (Int, Sandbox.Output).self) { group in
            for (index, command) in commands.enumerated() {
                group.addTask { (index, await sandbox.run(command)) }
            }
            var outputs = [Sandbox.Output?](repeating: nil, count: commands.count)
            for await (index, output) in group { outputs[index] = output }
            return outputs.map { $0! }
        }
    }

    @Test func fiftyProcessesSetAndReadDefaultsWithoutLosingACompletedWrite() async throws {
        let sandbox = Sandbox()
        for app in ["alpha", "beta"] {
            sandbox.desktopEntry("\(app).desktop", sandbox.application(name: app, exec: "/bin/true %u"))
        }
        let types = (0..<25).map { String(format: "type%02d", $0) } + ["shared"]
        let catalog = types.map { key in
            """
            {"key":"\(key)","name":"\(key)","actions":[{"key":"show","name":"Show"}],"apps":[
              {"key":"alpha","name":"Alpha","app_url_scheme":"alpha:","desktop_ids":["alpha.desktop"]},
              {"key":"beta","name":"Beta","app_url_scheme":"beta:","desktop_ids":["beta.desktop"]}]}
            """
        }
        sandbox.write(sandbox.configHome + "/choosy/catalog/many.json", "[" + catalog.joined(separator: ",") + "]")

        // 25 writers of their own type, 15 writers of one shared type, 10 readers.
        var wanted: [String: String] = [:]
        var commands: [[String]] = []
        for key in types.dropLast() {
            wanted[key] = ["alpha", "beta"].randomElement()!
            commands.append(["default", key, wanted[key]!])
        }
        var sharedValues: Set<String> = []
        for _ in 0..<15 {
            let app = ["alpha", "beta"].randomElement()!
            sharedValues.insert(app)
            commands.append(["default", "shared", app])
        }
        for index in 0..<10 {
            commands.append(["default", index.isMultiple(of: 2) ? "shared" : types[index]])
        }
        commands.shuffle()
        #expect(commands.count == 50)

        let outputs = await Self.runAtOnce(sandbox, commands)
        for (command, output) in zip(commands, outputs) {
            #expect(output.status == 0, "\(command): \(output.stderr)")
            #expect(output.stderr.isEmpty, "\(command): \(output.stderr)")
            if command.count == 2 {
                #expect(["", "alpha\n", "beta\n"].contains(output.stdout), "\(command): \(output.stdout)")
            }
        }

        let data = try #require(FileManager.default.contents(atPath: sandbox.configHome + "/choosy/preferences.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let stored = try #require(object["types"] as? [String: [String: Any]]).compactMapValues { $0["default"] as? String }
        for (key, app) in wanted {
            #expect(stored[key] == app, "the completed write \(key)=\(app) was lost")
        }
        #expect(stored["shared"].map(sharedValues.contains) == true, "\(String(describing: stored["shared"]))")
        let files = try FileManager.default.contentsOfDirectory(atPath: sandbox.configHome + "/choosy").sorted()
        #expect(files == ["catalog", "preferences.json", "preferences.json.lock"])
    }

    @Test func twentyColdProcessesNeedingATypeOnlyTheServerHasMakeOneRequest() async throws {
        let sandbox = Sandbox()
        let server = try CatalogServer(serving: Sandbox.upstreamFixtures, in: sandbox)
        try CatalogFaultMatrixTests.podcasts.write(toFile: server.root + "/app-data/podcasts.json", atomically: true, encoding: .utf8)
        sandbox.overrides = ["CHOOSY_CATALOG_URL": server.baseURL, "CHOOSY_OFFLINE": ""]

        let outputs = await Self.runAtOnce(sandbox, Array(repeating: ["describe", "Podcasts"], count: 20))
        for output in outputs {
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("gpodder"))
        }
        #expect(server.requests.map(\.path) == ["/app-data/podcasts.json"])
    }
}
