/// A unified diff of two texts by lines, with context, for golden-file
/// mismatches a person has to read.
enum LineDiff {
    /// `--- expected` / `+++ actual` hunks with `context` unchanged lines
    /// around each change; empty when the texts are equal.
    static func unified(
        expected: String, actual: String, expectedLabel: String, actualLabel: String,
        context: Int = 3
    ) -> String {
        let old = lines(expected), new = lines(actual)
        guard old != new else { return "" }
        let script = editScript(old, new)
        var output = ["--- \(expectedLabel)", "+++ \(actualLabel)"]
        // Group edits into hunks separated by more than 2*context unchanged lines.
        var index = 0
        while index < script.count {
            guard let start = script[index...].firstIndex(where: { $0.kind != .same }) else { break }
            var end = start
            var cursor = start
            while cursor < script.count {
                if script[cursor].kind != .same { end = cursor; cursor += 1; continue }
                let run = script[cursor...].prefix { $0.kind == .same }.count
                if cursor + run >= script.count || run > 2 * context { break }
                cursor += run
            }
            let from = max(0, start - context), to = min(script.count - 1, end + context)
            let hunk = script[from...to]
            let oldStart = (hunk.first?.oldLine ?? 0) + 1, newStart = (hunk.first?.newLine ?? 0) + 1
            let oldCount = hunk.filter { $0.kind != .inserted }.count
            let newCount = hunk.filter { $0.kind != .deleted }.count
            output.append("@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@")
            for edit in hunk {
                switch edit.kind {
                case .same: output.append(" " + edit.text)
                case .deleted: output.append("-" + edit.text)
                case .inserted: output.append("+" + edit.text)
                }
            }
            index = to + 1
        }
        return output.joined(separator: "\n") + "\n"
    }

    private static func lines(_ text: String) -> [String] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if result.last == "" { result.removeLast() }
        return result
    }

    struct Edit {
        enum Kind { case same, deleted, inserted }
        let kind: Kind
        let text: String
        /// Line index in the old (expected) and new (actual) text before this edit.
        let oldLine: Int
        let newLine: Int
    }

    /// A shortest edit script from a longest-common-subsequence table. Golden
    /// reports are small; very large inputs fall back to "replace everything".
    static func editScript(_ old: [String], _ new: [String]) -> [Edit] {
        let n = old.count, m = new.count
        guard n * m <= 4_000_000 else {
            return old.enumerated().map { Edit(kind: .deleted, text: $0.element, oldLine: $0.offset, newLine: 0) }
                + new.enumerated().map { Edit(kind: .inserted, text: $0.element, oldLine: n, newLine: $0.offset) }
        }
        var table = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, old[i] == new[j] {
                edits.append(Edit(kind: .same, text: old[i], oldLine: i, newLine: j)); i += 1; j += 1
            } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
                // Deletions before insertions, as unified diffs read.
                edits.append(Edit(kind: .deleted, text: old[i], oldLine: i, newLine: j)); i += 1
            } else {
                edits.append(Edit(kind: .inserted, text: new[j], oldLine: i, newLine: j)); j += 1
            }
        }
        return edits
    }
}
