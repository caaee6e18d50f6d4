import Testing

@testable import ObserverHarness

@Suite struct JSONSourceTextTests {
    @Test func mapsOffsetsToOneBasedLinesAndColumns() {
        let source = JSONSourceText(bytes: Array("ab\ncd\n\nef".utf8))
        #expect(source.lineCount == 4)
        #expect(source.position(ofOffset: 0) == (1, 1))
        #expect(source.position(ofOffset: 1) == (1, 2))
        #expect(source.position(ofOffset: 2) == (1, 3))  // the newline itself
        #expect(source.position(ofOffset: 3) == (2, 1))
        #expect(source.position(ofOffset: 6) == (3, 1))
        #expect(source.position(ofOffset: 8) == (4, 2))
        #expect(source.position(ofOffset: 9) == (4, 3))  // end of input
    }

    @Test func clampsOffsetsOutsideTheText() {
        let source = JSONSourceText(bytes: Array("ab".utf8))
        #expect(source.position(ofOffset: -5) == (1, 1))
        #expect(source.position(ofOffset: 50) == (1, 3))
        #expect(JSONSourceText(bytes: []).position(ofOffset: 0) == (1, 1))
    }

    @Test func columnsCountUnicodeScalarsAndTabsAsOne() {
        // "\t" 1 column, "é" 2 bytes, "日" 3 bytes, "😀" 4 bytes.
        let source = JSONSourceText(bytes: Array("\té日😀x".utf8))
        #expect(source.position(ofOffset: 1) == (1, 2))
        #expect(source.position(ofOffset: 3) == (1, 3))
        #expect(source.position(ofOffset: 6) == (1, 4))
        #expect(source.position(ofOffset: 10) == (1, 5))
    }

    @Test func treatsCRLFAndLoneCRAsOneLineBreak() {
        let source = JSONSourceText(bytes: Array("a\r\nb\rc\n".utf8))
        #expect(source.position(ofOffset: 3) == (2, 1))
        #expect(source.position(ofOffset: 5) == (3, 1))
        #expect(source.position(ofOffset: 7) == (4, 1))
        #expect(source.lineCount == 4)
    }

    @Test func byteOrderMarkTakesNoColumn() {
        let source = JSONSourceText(bytes: [0xEF, 0xBB, 0xBF] + Array("ab\nc".utf8))
        #expect(source.position(ofOffset: 3) == (1, 1))
        #expect(source.position(ofOffset: 4) == (1, 2))
        #expect(source.position(ofOffset: 6) == (2, 1))
    }

    @Test func parseErrorPositionsAgreeWithSourceText() {
        let text = "\u{FEFF}{\r\n  \"a\": [1,\n\t\"日本\"\r  x]}"
        let bytes = Array(text.utf8)
        do {
            _ = try JSONParser.parse(bytes)
            Issue.record("expected an error")
        } catch {
            let position = JSONSourceText(bytes: bytes).position(ofOffset: error.offset)
            #expect(error.line == position.line)
            #expect(error.column == position.column)
            #expect((error.line, error.column) == (4, 3))
        }
    }
}
