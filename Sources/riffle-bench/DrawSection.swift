import Foundation
import RiffleKit
import RiffleTUI

/// What drawing the list costs when a server sends a title of megabytes: each key press draws a
/// frame, so this is the time between a key and the screen's answer.
struct DrawSection {
    let iterations = 20

    func run() {
        print("Drawing the list, 120x40, one screen of items (ms a frame, median of \(iterations))")
        var table = Table("titles", "median", "best")
        for (name, title) in [("50 ordinary", "Show HN: a terminal UI for paged JSON feeds"),
                              ("one of 5 MB, ASCII", String(repeating: "a", count: 5 << 20)),
                              ("one of 5 MB, CJK and emoji", String(repeating: "漢字😀", count: (5 << 20) / 11))] {
            let items = (0..<50).map { i in
                Item(id: "\(i)", title: i == 0 ? title : "item \(i)", details: ["pg", "12 points"], url: nil, createdAt: nil, fields: .null)
            }
            let list = ListView(items: items, selection: 0, offset: 0, now: Date())
            let timing = measure(iterations: iterations, warmup: 2) {
                var buffer = Buffer(size: Size(width: 120, height: 40))
                list.render(into: &buffer, area: buffer.area)
                blackHole(buffer)
            }
            table.add(name, String(format: "%.3f", timing.median / 1000), String(format: "%.3f", timing.best / 1000))
        }
        table.print()
    }
}
