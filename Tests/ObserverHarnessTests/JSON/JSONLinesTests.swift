import Testing
@testable import ObserverHarness

@Suite struct JSONLinesTests {
    private let kinds = ["deliver", "register", "post", "remove"]
    private let channels = ["AddToCart", "Checkout", "Login", "Logout"]

    private func line(_ seq: Int) -> String {
        #"{"seq":\#(seq),"kind":"\#(kinds[seq % 4])","obs":\#(seq % 7),"ch":"\#(channels[seq % 4])"}"#
    }

    @Test func parsesManyTraceLinesWithParseValue() throws {
        let count = 200_000
        var text: [UInt8] = []
        for seq in 0..<count {
            text.append(contentsOf: line(seq).utf8)
            text.append(UInt8(ascii: "\n"))
        }

        var parsed = 0
        for lineBytes in text.split(separator: UInt8(ascii: "\n")) {
            let value = try JSONParser.parseValue(Array(lineBytes))
            let seq = parsed
            // Compare fields rather than whole values to keep this loop cheap.
            guard value["seq"] == .int(seq), value["kind"] == .string(kinds[seq % 4]),
                  value["obs"] == .int(seq % 7), value["ch"] == .string(channels[seq % 4]),
                  value.objectValue?.count == 4
            else {
                Issue.record("line \(seq) parsed as \(value)")
                return
            }
            parsed += 1
        }
        #expect(parsed == count)
    }

    @Test func traceLinesRoundTripThroughCompactOutput() throws {
        var buffer: [UInt8] = []
        for seq in 0..<1000 {
            let value = try JSONParser.parseValue(Array(line(seq).utf8))
            buffer.removeAll(keepingCapacity: true)
            value.write(into: &buffer, options: .compactPreservingOrder)
            #expect(buffer == Array(line(seq).utf8))
        }
    }
}
