import Testing

@testable import ObserverHarness

@Suite struct JSONLinesTests {
    private let kinds = ["deliver", "register", "post", "remove"]
    private let channels = ["AddToCart", "Checkout", "Login", "Logout"]

    private func line(_ seq: Int) -> String {
        #"{"seq":\#(seq),"kind":"\#(kinds[seq % 4])","obs":\#(seq % 7),"ch":"\#(channels[seq % 4])"}"#
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
