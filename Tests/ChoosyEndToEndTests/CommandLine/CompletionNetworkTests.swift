import ChoosyTestSupport
import Foundation
import Testing

@Suite struct CompletionNetworkTests {
    let sandbox = Sandbox()

    /// Completion runs on every Tab: even with the network allowed and the data stale, it
    /// neither fetches a type no local source knows nor starts a background refresh; a type
    /// that was downloaded before completes from the cache.
    @Test func neverUsesTheNetwork() throws {
        let tree = sandbox.root + "/served"
        sandbox.write(
            tree + "/app-data/recipes.json",
            """
            [{"name": "Recipes", "key": "recipes", "actions": [{"name": "Cook", "key": "cook"}],
              "apps": [{"name": "Cookbook", "key": "cookbook", "app_url_scheme": "cookbook:"}]}]
            """)
        let server = try CatalogServer(serving: tree, in: sandbox)
        sandbox.overrides = ["CHOOSY_CATALOG_URL": server.baseURL, "CHOOSY_OFFLINE": ""]
        #expect(sandbox.choosy("__complete", "open", "recipes", "").stdout == "")
        #expect(sandbox.choosy("__complete", "open", "twitter", "").status == 0)
        usleep(500_000)
        #expect(server.requests.isEmpty)

        #expect(sandbox.choosy("describe", "recipes").status == 0)
        #expect(server.requests.map(\.path) == ["/app-data/recipes.json"])
        #expect(sandbox.choosy("__complete", "open", "rec").stdout == "recipes\tRecipes\n")
        #expect(sandbox.choosy("__complete", "open", "recipes", "").stdout == "cook\tCook\n")
    }
}
