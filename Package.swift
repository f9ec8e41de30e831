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
        .testTarget(
            name: "ChoosyKitTests",
            dependencies: ["ChoosyKit"]
        ),
    ]
)
