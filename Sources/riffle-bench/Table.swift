/// Prints rows as an aligned plain-text table; the first row is the header.
struct Table {
    var rows: [[String]]

    init(_ header: String...) { rows = [header] }

    mutating func add(_ cells: String...) { rows.append(cells) }

    func print() {
        let widths = rows.reduce(into: [Int](repeating: 0, count: rows[0].count)) { w, row in
            for (i, cell) in row.enumerated() where i < w.count { w[i] = max(w[i], cell.count) }
        }
        for (n, row) in rows.enumerated() {
            let line = row.enumerated().map { i, cell in
                // Numbers read better right-aligned; the first column is a label.
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return i == 0 ? cell + pad : pad + cell
            }
            Swift.print(line.joined(separator: "  "))
            if n == 0 { Swift.print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")) }
        }
    }
}
