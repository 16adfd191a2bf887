// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Riffle",
    products: [
        .library(name: "RiffleKit", targets: ["RiffleKit"]),
        .executable(name: "riffle", targets: ["riffle"]),
    ],
    targets: [
        // Wide-character ncurses from Debian. No pkgConfig: SwiftPM would drop its -D flags with a warning.
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw", providers: [.apt(["libncurses-dev"])]),
        // SQLite from Debian, for the response cache's index.
        .systemLibrary(name: "CSQLite3", path: "Sources/CSQLite3", providers: [.apt(["libsqlite3-dev"])]),
        // Data files (demo feed, presets, themes) with a locator that never traps; see Assets/RiffleAssets.swift.
        .target(name: "RiffleAssets", path: "Assets", resources: [.copy("demo"), .copy("presets"), .copy("themes")]),
        .target(name: "RiffleKit", dependencies: ["CSQLite3", "RiffleAssets"]),
        .target(name: "CWidth"),
        .target(name: "RiffleTUI", dependencies: ["RiffleKit", "CWidth"]),
        .target(name: "CTerminal"),
        .target(name: "NcursesTerminal", dependencies: ["RiffleTUI", "CNcursesw", "CTerminal"]),
        .target(name: "DemoServer", dependencies: ["RiffleAssets"]),
        .executableTarget(name: "riffle", dependencies: ["RiffleKit", "RiffleTUI", "NcursesTerminal", "DemoServer", "RiffleAssets"]),
        .executableTarget(name: "riffle-bench", dependencies: ["RiffleKit", "RiffleTUI", "DemoServer"]),

        .testTarget(name: "RiffleKitTests", dependencies: ["RiffleKit", "DemoServer"], resources: [.copy("Fixtures")]),
        .testTarget(name: "RiffleTUITests", dependencies: ["RiffleTUI"]),
        .testTarget(name: "NcursesTerminalTests", dependencies: ["NcursesTerminal"]),
        .testTarget(name: "DemoServerTests", dependencies: ["DemoServer"]),
        .testTarget(name: "riffleTests", dependencies: ["riffle", "RiffleKit", "DemoServer"]),
    ],
    swiftLanguageModes: [.v6]
)
