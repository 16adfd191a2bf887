import Foundation

// AssetEmbedder OUTPUT FILE...
//
// Writes OUTPUT, a Swift file with an `EmbeddedAssets` enum holding each FILE (UTF-8 text, named by
// its folder and file name, `themes/dark.json`) as a string literal. Run by the EmbedAssets build-tool plugin; a string
// literal compiles in well under a second where an array of bytes took minutes.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("AssetEmbedder: \(message)\n".utf8))
    exit(1)
}

/// `text` as the inside of a Swift string literal: printable ASCII as is, everything else escaped,
/// so the generated file is plain ASCII and reads back byte for byte.
func literal(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count + text.utf8.count / 8)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case " "..."~": out.unicodeScalars.append(scalar)
        default: out += "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
    return out
}

let arguments = CommandLine.arguments.dropFirst()
guard let first = arguments.first else { fail("usage: AssetEmbedder OUTPUT FILE...") }
let output = URL(fileURLWithPath: first)
var cases = ""
var paths: [String] = []
for file in arguments.dropFirst() {
    let url = URL(fileURLWithPath: file)
    let path = url.path
    let name = url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent
    guard !paths.contains(name) else { fail("two files are named \(name)") }
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    guard let text = String(data: data, encoding: .utf8) else { fail("\(path) is not UTF-8 text") }
    paths.append(name)
    cases += "        case \"\(literal(name))\": \"\(literal(text))\"\n"
}

let source = """
// Generated at build time by AssetEmbedder (the EmbedAssets plugin) from the files under Assets/.
// Edit those files, not this one.

enum EmbeddedAssets {
    /// The path of every embedded file under `Assets/`, e.g. `themes/dark.json`.
    static let paths: [String] = [\(paths.map { "\"\(literal($0))\"" }.joined(separator: ", "))]

    /// The bytes of the file at `path` under `Assets/`, or nil.
    static func file(_ path: String) -> StaticString? {
        switch path {
\(cases)        default: nil
        }
    }
}

"""
// Unchanged output keeps its timestamp, so nothing downstream rebuilds.
if FileManager.default.contents(atPath: output.path) != Data(source.utf8) {
    do { try Data(source.utf8).write(to: output, options: .atomic) } catch { fail("cannot write \(output.path): \(error)") }
}
