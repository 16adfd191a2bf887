// swift-tools-version: 6.0
import PackageDescription

/// Release builds of `riffle` link the Swift runtime and Foundation statically: loading Foundation's
/// shared libraries is most of a dynamic Swift program's start-up (about 14 ms of 18 here), and a
/// browser should paint a cached page before anything slow happens. FoundationNetworking's objects ask
/// for `-lcurl`; `StaticLink/libcurl.so` is an empty linker script that answers it, and the CCurlLazy
/// target loads libcurl on the first transfer instead (its ~30 libraries took 4.5 ms of every start).
/// No development package is needed. Debug builds (and the tests) stay dynamic.
let staticLink = "\(Context.packageDirectory)/Sources/riffle/StaticLink"

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
        // libcurl loaded on first use by release builds of riffle (see ccurllazy.c); .ci/run checks it.
        .target(name: "CCurlLazy"),
        .target(name: "NcursesTerminal", dependencies: ["RiffleTUI", "CNcursesw", "CTerminal"]),
        .target(name: "DemoServer", dependencies: ["RiffleAssets"]),
        .target(name: "RiffleBrowser", dependencies: ["RiffleKit", "RiffleTUI"]),
        .executableTarget(name: "riffle", dependencies: ["RiffleKit", "RiffleTUI", "RiffleBrowser", "NcursesTerminal", "DemoServer", "RiffleAssets", "CCurlLazy"],
                          exclude: ["StaticLink"],
                          swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))],
                          linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xclang-linker", "-no-pie", "-Xlinker", "-L\(staticLink)"], .when(configuration: .release))]),
        .executableTarget(name: "riffle-bench", dependencies: ["RiffleKit", "RiffleTUI", "DemoServer"]),

        .testTarget(name: "RiffleKitTests", dependencies: ["RiffleKit", "DemoServer"], resources: [.copy("Fixtures")]),
        .testTarget(name: "RiffleTUITests", dependencies: ["RiffleTUI"]),
        .testTarget(name: "NcursesTerminalTests", dependencies: ["NcursesTerminal"]),
        .testTarget(name: "RiffleBrowserTests", dependencies: ["RiffleBrowser", "RiffleTUI", "RiffleKit"]),
        .testTarget(name: "DemoServerTests", dependencies: ["DemoServer"]),
        .testTarget(name: "riffleTests", dependencies: ["riffle", "RiffleKit", "DemoServer"]),
    ],
    swiftLanguageModes: [.v6]
)
