import Foundation
import PackagePlugin

/// Compiles the data files of the target it is applied to (`Assets/`: the demo feed, the presets,
/// the themes) into that target: `AssetEmbedder` writes each `.json` file as a string literal of an
/// `EmbeddedAssets` enum, named by its folder and file name (`themes/dark.json`). The files stay the
/// source of truth, and a change to one rebuilds it.
@main
struct EmbedAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles.map(\.url).filter { $0.pathExtension == "json" }
            .sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift")
        return [.buildCommand(displayName: "Embedding \(inputs.count) files of \(target.name)",
                              executable: try context.tool(named: "AssetEmbedder").url,
                              arguments: [output.path] + inputs.map(\.path),
                              inputFiles: inputs, outputFiles: [output])]
    }
}
