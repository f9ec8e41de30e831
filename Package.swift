// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "choosy",
    products: [
        .executable(name: "choosy", targets: ["choosy"]),
        .library(name: "ChoosyKit", targets: ["ChoosyKit"]),
    ],
    targets: [
        // Headers only: libcurl is dlopen'ed on first use so that commands which never touch
        // the network do not pay for loading it.
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // glibc extensions (pipe2, addchdir_np, POSIX_SPAWN_SETSID) that need _GNU_SOURCE.
        .target(name: "CSystem"),
        .executableTarget(name: "catalog-embedder"),
        .plugin(
            name: "EmbedCatalog",
            capability: .buildTool(),
            dependencies: ["catalog-embedder"]
        ),
        .target(
            name: "ChoosyKit",
            dependencies: ["CCurl", "CSystem"],
            plugins: ["EmbedCatalog"]
        ),
        .executableTarget(
            name: "choosy",
            dependencies: ["ChoosyKit"]
        ),
        // What the tests share (Sandbox, the catalog server, fakes): no tests of its own.
        .target(
            name: "ChoosyTestSupport",
            dependencies: ["ChoosyKit"],
            path: "Tests/ChoosyTestSupport"
        ),
        // Each type on its own, in process: `make check`.
        .testTarget(
            name: "ChoosyKitTests",
            dependencies: ["ChoosyKit", "ChoosyTestSupport"]
        ),
        // The choosy binary run as a user runs it, with real desktop entries, servers and
        // processes; faults, crashes and races.
        .testTarget(
            name: "ChoosyEndToEndTests",
            dependencies: ["ChoosyKit", "ChoosyTestSupport"]
        ),
    ]
)
