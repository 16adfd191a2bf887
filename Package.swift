// swift-tools-version: 6.0
import PackageDescription

/// Release builds of `riffle` link the Swift runtime and Foundation statically: loading Foundation's
/// shared libraries is most of a dynamic Swift program's start-up (about 14 ms of 18 here), and a
/// browser should paint a cached page before anything slow happens. Nothing links libcurl: CCurl loads
/// it on the first request. libstdc++ is linked statically too, and lld packs the code that runs together
/// (Linker/riffle.order). Debug builds (and the tests) stay dynamic.

/// Release builds of the app's own modules (none in the RiffleKit library product, which stays free of
/// unsafe flags) reach the metadata of a generic type at a concrete type through its accessor, not by
/// demangling its name at run time, which looks up each of its conformances by scanning every
/// conformance record in the binary: that was about 15% of the CPU before the first paint
/// (DECISIONS.md, "Generic metadata is reached by accessor in the app's modules"). They put each
/// function in a section of its own, so Linker/riffle.order places the functions that run, not whole
/// files (DECISIONS.md, "The code that runs is packed together").
let appModuleFlags: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
                   "-Xfrontend", "-function-sections"],
                 .when(configuration: .release)),
]

let package = Package(
    name: "Riffle",
    products: [
        .library(name: "RiffleKit", targets: ["RiffleKit"]),
        .executable(name: "riffle", targets: ["riffle"]),
    ],
    targets: [
        // Wide-character ncurses from Debian. No pkgConfig: SwiftPM would drop its -D flags with a warning.
        .systemLibrary(name: "CNcursesw", path: "Sources/CNcursesw", providers: [.apt(["libncurses-dev"])]),
        // SQLite from Debian, for the response cache's index and the reading log (through RiffleStorage).
        .systemLibrary(name: "CSQLite3", path: "Sources/CSQLite3", providers: [.apt(["libsqlite3-dev"])]),
        // Data files (demo feed, presets, themes), compiled in by the EmbedAssets plugin; see Assets/RiffleAssets.swift.
        .target(name: "RiffleAssets", path: "Assets", plugins: ["EmbedAssets"]),
        .executableTarget(name: "AssetEmbedder"),
        .plugin(name: "EmbedAssets", capability: .buildTool(), dependencies: ["AssetEmbedder"]),
        // libcurl's functions, declared by hand and loaded on first use (libcurl.so.4 ships without headers).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // RiffleKit's layers, bottom up; each may import only what its dependencies list (see README, "Modules").
        .target(name: "RiffleJSON"),
        .target(name: "RiffleHTTP", dependencies: ["RiffleJSON", "CCurl"]),
        // Riffle's files under its cache folder: SQLite connections, the folder reached without following
        // links, and the one way an SQLite file is created (0600), opened and replaced.
        .systemLibrary(name: "CXattr", path: "Sources/CXattr"),
        .target(name: "RiffleStorage", dependencies: ["CSQLite3", "CXattr"]),
        .target(name: "RiffleCache", dependencies: ["RiffleJSON", "RiffleHTTP", "RiffleStorage"]),
        .target(name: "RiffleKit", dependencies: ["RiffleJSON", "RiffleHTTP", "RiffleCache", "RiffleAssets"]),
        // The reading log (seen marks, search): the app's, beside the library rather than in it.
        .target(name: "RiffleReading", dependencies: ["RiffleKit", "RiffleStorage"], swiftSettings: appModuleFlags),
        .target(name: "CWidth"),
        .target(name: "RiffleTUI", dependencies: ["RiffleKit", "RiffleReading", "CWidth"], swiftSettings: appModuleFlags),
        .target(name: "CTerminal"),
        .target(name: "NcursesTerminal", dependencies: ["RiffleTUI", "CNcursesw", "CTerminal"], swiftSettings: appModuleFlags),
        .target(name: "DemoServer", dependencies: ["RiffleAssets", "RiffleHTTP"]),
        .target(name: "RiffleBrowser", dependencies: ["RiffleKit", "RiffleReading", "RiffleTUI"], swiftSettings: appModuleFlags),
        .executableTarget(name: "riffle", dependencies: ["RiffleKit", "RiffleReading", "RiffleTUI", "RiffleBrowser", "NcursesTerminal", "DemoServer", "RiffleAssets"],
                          swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))] + appModuleFlags,
                          // Linker/static-libstdc++ holds a libstdc++.so that names libstdc++.a: found first, it links the
                          // runtime's C++ parts statically (DECISIONS.md, "libstdc++ is linked statically"). lld lays the
                          // code that runs out together, in Linker/riffle.order's order (DECISIONS.md, "The code that runs
                          // is packed together").
                          linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xclang-linker", "-no-pie",
                                                         "-L", Context.packageDirectory + "/Linker/static-libstdc++",
                                                         "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=" + Context.packageDirectory + "/Linker/riffle.order",
                                                         "-Xlinker", "--no-warn-symbol-ordering",
                                                         // -static-stdlib exports every symbol of riffle's own objects to the
                                                         // dynamic linker, which nothing looks up (DECISIONS.md, "exports nothing").
                                                         "-Xlinker", "--no-export-dynamic"], .when(configuration: .release))]),
        .executableTarget(name: "riffle-bench", dependencies: ["RiffleKit", "RiffleTUI", "DemoServer"]),

        // What RiffleKit's tests run in child processes (two writers of one cache, a full disk, another
        // user): a program of its own, so no test is a child's entry point in disguise.
        .executableTarget(name: "riffle-test-child", dependencies: ["RiffleKit"], path: "Tests/RiffleTestChild"),
        // What more than one test target uses (loopback servers and listeners, the JSON oracle and
        // generators, a client and a cache fixture for 127.0.0.1, bounded waits), in one place; `package`
        // API, so it builds in release too.
        .target(name: "RiffleTestSupport", dependencies: ["RiffleJSON", "RiffleHTTP", "DemoServer"], path: "Tests/RiffleTestSupport"),
        // One test target per module of RiffleKit, each seeing its module and the ones below it.
        .testTarget(name: "RiffleJSONTests", dependencies: ["RiffleJSON", "RiffleTestSupport"]),
        .testTarget(name: "RiffleHTTPTests", dependencies: ["RiffleHTTP", "RiffleJSON", "DemoServer", "RiffleTestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "RiffleStorageTests", dependencies: ["RiffleStorage"]),
        .testTarget(name: "RiffleCacheTests", dependencies: ["RiffleCache", "RiffleStorage", "RiffleHTTP", "RiffleJSON", "DemoServer", "RiffleTestSupport"]),
        .testTarget(name: "RiffleKitTests", dependencies: ["RiffleKit", "RiffleStorage", "DemoServer", "RiffleTestSupport", "riffle-test-child"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "RiffleReadingTests", dependencies: ["RiffleReading", "RiffleKit", "RiffleStorage", "RiffleTestSupport"]),
        .testTarget(name: "RiffleTUITests", dependencies: ["RiffleTUI", "RiffleReading"]),
        .testTarget(name: "NcursesTerminalTests", dependencies: ["NcursesTerminal", "RiffleTUI", "RiffleKit"]),
        .testTarget(name: "RiffleBrowserTests", dependencies: ["RiffleBrowser", "RiffleReading", "RiffleTUI", "RiffleKit", "RiffleStorage", "DemoServer", "RiffleTestSupport"]),
        .testTarget(name: "DemoServerTests", dependencies: ["DemoServer", "RiffleAssets", "RiffleTestSupport"]),
        .testTarget(name: "riffle-benchTests", dependencies: ["riffle-bench"]),
        .testTarget(name: "riffleTests", dependencies: ["riffle", "RiffleKit", "RiffleReading", "RiffleTUI", "DemoServer", "RiffleTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
