import Foundation
import Testing
@testable import RiffleKit

@Suite struct ZZPlanDebug {
    @Test func dump() throws {
        let env = ProcessInfo.processInfo.environment
        guard let files = env["PLAN_FILES"] else { return }
        var out = ""
        for file in files.split(separator: ",") {
            let data = try Data(contentsOf: URL(fileURLWithPath: String(file)))
            out += "== \(file)\n"
            do {
                let name = URL(fileURLWithPath: String(file)).deletingPathExtension().lastPathComponent
                let base = ItemCorpusTests.pageURL(name) ?? URL(string: "https://example.org/feed/page")!
                let plan = try ItemExtractor.plan(in: ItemExtractor.document(data, stored: false), baseURL: base)
                out += "list \(plan.list.path) \(plan.list.count) \(plan.list.reasons) unwrap=\(plan.unwrap ?? "-")\n"
                for l in plan.otherLists { out += "   other \(l.path) \(l.score) \(l.reasons)\n" }
                for c in plan.choices {
                    out += "  \(c.part): \(c.path.map(\.description) ?? "-")\n"
                    for k in c.candidates { out += "      \(k.score) \(k.path) \(k.reasons.joined(separator: "; "))\n" }
                }
                let items = try ItemExtractor.items(in: data, baseURL: base)
                for item in items.prefix(3) { out += "    * \(item.title.prefix(80)) | \(item.url ?? "-") | \(item.details) | \(item.createdAt.map { "\($0)" } ?? "-") | id=\(item.id ?? "-")\n" }
            } catch { out += "error: \(error)\n" }
        }
        try out.write(toFile: "/tmp/extract-debug/plan.txt", atomically: true, encoding: .utf8)
    }
}
