// swift-tools-version:6.0
// A program that uses ChoosyKit as a library, through its public API only (doc/library.md).
// `make test` builds it.
import PackageDescription

let package = Package(
    name: "ChoosyKitExamples",
    dependencies: [.package(name: "choosy", path: "..")],
    targets: [
        .executableTarget(
            name: "share-profile",
            dependencies: [.product(name: "ChoosyKit", package: "choosy")]
        )
    ]
)
