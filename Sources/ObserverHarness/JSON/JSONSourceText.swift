/// Maps byte offsets in a UTF-8 document to 1-based lines and columns.
///
/// Lines end at `\n`, `\r\n`, or a lone `\r`. Columns count Unicode scalars,
/// not bytes, so a column matches what an editor shows for text without tabs;
/// a tab counts as one column. A leading byte order mark takes no column.
package struct JSONSourceText: Sendable {
    private let bytes: [UInt8]

    /// The offset at which each line starts; line N starts at `lineStarts[N - 1]`.
    private let lineStarts: [Int]

    /// The number of UTF-8 continuation bytes before each multiple of
    /// ``blockSize``, so a column costs at most one block's scan however long
    /// its line is (a whole scenario written on one line must not make every
    /// position cost a scan of the line).
    private let continuationsBeforeBlock: [Int]
    private static var blockSize: Int { 64 }

    /// Indexes the lines of `bytes`.
    package init(bytes: [UInt8]) {
        self.bytes = bytes
        var lineStarts = [Self.firstLineStart(bytes)]
        var continuations: [Int] = []
        continuations.reserveCapacity(bytes.count / Self.blockSize + 1)
        var continuationCount = 0
        var offset = 0
        // The offset after the last line break (past both bytes of a CRLF).
        var lineStart = 0
        while offset < bytes.count {
            if offset % Self.blockSize == 0 { continuations.append(continuationCount) }
            if bytes[offset] & 0xC0 == 0x80 { continuationCount += 1 }
            if offset >= lineStart, let next = Self.lineBreakEnd(bytes, at: offset) {
                lineStarts.append(next)
                lineStart = next
            }
            offset += 1
        }
        continuations.append(continuationCount)
        self.lineStarts = lineStarts
        self.continuationsBeforeBlock = continuations
    }

    /// The number of lines; an empty document has one.
    package var lineCount: Int { lineStarts.count }

    /// The 1-based line and column of the byte at `offset`.
    ///
    /// Offsets past the end (such as the end of input) map to just after the
    /// last byte; negative offsets map to the start.
    package func position(ofOffset offset: Int) -> (line: Int, column: Int) {
        let offset = min(max(offset, 0), bytes.count)
        // The last line starting at or before `offset`.
        var low = 0
        var high = lineStarts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle }
        }
        let lineStart = lineStarts[low]
        // Inside a byte order mark: column 1.
        let end = max(offset, lineStart)
        return (low + 1, 1 + (end - lineStart) - (continuations(before: end) - continuations(before: lineStart)))
    }

    /// UTF-8 continuation bytes before `offset` (which is at most `bytes.count`).
    private func continuations(before offset: Int) -> Int {
        let block = offset / Self.blockSize
        guard block < continuationsBeforeBlock.count else {
            return continuationsBeforeBlock[continuationsBeforeBlock.count - 1]
        }
        var count = continuationsBeforeBlock[block]
        for index in block * Self.blockSize..<offset where bytes[index] & 0xC0 == 0x80 { count += 1 }
        return count
    }

    /// Computes one position without indexing the whole document, for errors.
    static func position(in bytes: UnsafeBufferPointer<UInt8>, ofOffset offset: Int) -> (line: Int, column: Int) {
        let offset = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = firstLineStart(bytes)
        var cursor = 0
        while cursor < offset {
            if let next = lineBreakEnd(bytes, at: cursor), next <= offset {
                line += 1
                lineStart = next
                cursor = next
            } else {
                cursor += 1
            }
        }
        return (line, column(bytes, lineStart: lineStart, offset: offset))
    }

    // MARK: Shared rules

    /// Line 1 starts after a byte order mark, so the BOM takes no column.
    private static func firstLineStart<C: RandomAccessCollection<UInt8>>(_ bytes: C) -> Int where C.Index == Int {
        InputBytes.byteOrderMarkLength(bytes)
    }

    /// If a line break starts at `offset`, the offset just past it.
    private static func lineBreakEnd<C: RandomAccessCollection<UInt8>>(_ bytes: C, at offset: Int) -> Int?
    where C.Index == Int {
        switch bytes[offset] {
        case UInt8(ascii: "\n"):
            return offset + 1
        case UInt8(ascii: "\r"):
            let next = offset + 1
            return next < bytes.count && bytes[next] == UInt8(ascii: "\n") ? next + 1 : next
        default:
            return nil
        }
    }

    /// One plus the number of scalars between `lineStart` and `offset`.
    private static func column<C: RandomAccessCollection<UInt8>>(_ bytes: C, lineStart: Int, offset: Int) -> Int
    where C.Index == Int {
        var column = 1
        var cursor = lineStart
        while cursor < offset {
            // Continuation bytes (10xxxxxx) continue the previous scalar.
            if bytes[cursor] & 0xC0 != 0x80 { column += 1 }
            cursor += 1
        }
        return column
    }
}
