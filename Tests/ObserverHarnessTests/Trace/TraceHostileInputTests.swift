import Foundation
import Testing

@testable import ObserverHarness

/// A hostile trace ends in a ``InputError`` at its line and
/// column, never a crash, a hang or unbounded memory. (Truncation, unknown
/// kinds, fields and versions, ids and order are in `TraceReaderTests.swift`.)
@Suite struct TraceHostileInputTests {
    private let header = #"{"format":"observer-harness-trace","version":1,"name":"t"}"#

    private func error(_ lines: [String]) -> InputError? {
        TraceFixtures.readError(TraceFixtures.data(lines))
    }

    private func error(bytes: [UInt8]) -> InputError? {
        TraceFixtures.readError(Data(bytes))
    }

    /// Line and column, `L:C`.
    private func position(_ error: InputError?) -> String? {
        error.map { "\($0.line):\($0.column)" }
    }

    /// The 1-based column where `needle` starts in `line`.
    private func column(of needle: String, in line: String) -> Int {
        line.utf8.count - (line.range(of: needle).map { line[$0.lowerBound...].utf8.count } ?? 0) + 1
    }

    // MARK: Encoding and syntax

    @Test func bytesThatAreNotUTF8AreReportedAtTheFirstBadByte() {
        let prefix = Array((header + "\n" + #"{"string":1,"text":""#).utf8)
        let failure = error(bytes: prefix + [0xC3, 0x28] + Array("\"}\n".utf8))
        #expect(position(failure) == "2:21")
        #expect(failure?.message.contains("UTF-8") == true)
    }

    @Test func aHeaderThatIsNotUTF8IsNotATrace() {
        let failure = error(bytes: [0xFF, 0xFE] + Array("{}\n".utf8))
        #expect(position(failure) == "1:1")
        #expect(failure?.message.contains("not an observer-harness trace") == true)
    }

    @Test func aDuplicateKeyInAnEventLineIsReportedAtTheSecondKey() {
        // The fast path refuses it; the parser names it.
        let line = #"{"seq":0,"kind":"post","seq":0}"#
        let failure = error([header, line])
        #expect(position(failure) == "2:\(column(of: #""seq":0}"#, in: line))")
        #expect(failure?.message == #"duplicate key "seq""#)
    }

    @Test func aDuplicateKeyInTheHeaderIsReportedAtTheSecondKey() {
        let line = #"{"format":"observer-harness-trace","version":1,"version":2}"#
        let failure = error([line])
        #expect(position(failure) == "1:\(column(of: #""version":2"#, in: line))")
        #expect(failure?.message.contains("duplicate key \"version\"") == true)
    }

    @Test func deepNestingInALineIsAnErrorNotAStackOverflow() {
        let line = #"{"seq":"# + String(repeating: "[", count: 100_000)
        let failure = error([header, line])
        #expect(failure?.line == 2)
        #expect(failure?.message.contains("nesting") == true)
    }

    @Test func aTruncatedHeaderIsAnErrorOnLine1() {
        let failure = error(bytes: Array(#"{"format":"observer-harness-tr"#.utf8))
        #expect(failure?.line == 1)
        #expect(failure?.message.contains("unexpected end of input") == true)
    }

    @Test func blankLinesAloneAreNotATrace() {
        #expect(error(bytes: Array(" \n\t\n\r\n".utf8))?.message == "the trace has no header line")
        #expect(error(bytes: [])?.message.hasPrefix("the trace is empty") == true)
    }

    // MARK: Numbers

    @Test(arguments: [
        ("1e400", "number out of range"),
        ("18446744073709551616", #""seq" must be a whole number from 0 to 4294967295"#),
        ("-0", #""seq" must be a whole number from 0 to 4294967295"#),
        ("-1", #""seq" must be a whole number from 0 to 4294967295"#),
        ("0.5", #""seq" must be a whole number from 0 to 4294967295"#),
        ("1e2", #""seq" must be a whole number from 0 to 4294967295"#),
        (#""0""#, #""seq" must be a whole number from 0 to 4294967295"#),
    ])
    func aSequenceNumberOutOfRangeIsReportedAtTheNumber(value: String, message: String) {
        let line = #"{"seq":\#(value),"kind":"post"}"#
        let failure = error([header, line])
        #expect(position(failure) == "2:8")
        #expect(failure?.message == message)
    }

    @Test(arguments: [
        ("thread", "65536", "thread 65536 is out of range (0…65535)"),
        ("registration", "4294967296", "registration 4294967296 is out of range"),
        ("flags", "256", "flags 256 is not a flag set (0…255)"),
        ("t", "18446744073709551616", #""t" must be a whole number from 0 to 18446744073709551615"#),
        ("t", "9223372036854775808.0", #""t" must be a whole number from 0 to 18446744073709551615"#),
        ("site", "4294967295", "site 4294967295 is not defined (no site line comes before this one)"),
    ])
    func aFieldOutOfRangeIsReportedAtItsValue(key: String, value: String, message: String) {
        let line = #"{"seq":0,"kind":"post","\#(key)":\#(value)}"#
        let failure = error([header, line])
        #expect(position(failure) == "2:\(column(of: value, in: line))")
        #expect(failure?.message == message)
    }

    /// The writer's clock is 64 bits unsigned: every value it can write reads back exactly.
    @Test(arguments: [UInt64(0), UInt64(1) << 53 + 1, UInt64(1) << 63, UInt64.max - 1, UInt64.max])
    func aTimeUpToTheLargest64BitValueReadsExactly(time: UInt64) throws {
        // Spaces take the line off the fast path, through the JSON parser.
        for line in [#"{"seq":0,"kind":"post","t":\#(time)}"#, #"{"seq":0, "kind":"post", "t":\#(time)}"#] {
            let trace = try Recording.readTrace(TraceFixtures.data([header, line]))
            #expect(trace.recording.events[0].time == time, "\(line)")
        }
    }

    /// A skipped delivery with no cause (a live one's cause is the delivery
    /// it ran in) stopped the process in `dangling-registration`'s message.
    @Test func aSkippedDeliveryWithNoCauseIsAnalysedWithoutAPost() throws {
        let trace = try Recording.readTrace(
            TraceFixtures.data([header, #"{"seq":0,"kind":"add"}"#, #"{"seq":1,"kind":"deliver-skipped"}"#]))
        let findings = trace.recording.analyze().findings.filter { $0.rule == "dangling-registration" }
        #expect(findings.count == 1)
        #expect(findings.allSatisfy { !$0.message.contains("first skipped at") })
    }

    @Test func aVersionWrittenAsOnePointZeroIsVersionOne() throws {
        let trace = try Recording.readTrace(
            TraceFixtures.data(
                [#"{"format":"observer-harness-trace","version":1.0,"name":"t"}"#, #"{"seq":0,"kind":"post"}"#]))
        #expect(trace.recording.eventCount == 1)
    }

    // MARK: Byte order marks

    @Test func aByteOrderMarkAtTheStartOfTheTraceIsSkipped() throws {
        let trace = try Recording.readTrace(
            Data([0xEF, 0xBB, 0xBF]) + TraceFixtures.data([header, #"{"seq":0,"kind":"post"}"#]))
        #expect(trace.recording.eventCount == 1)
    }

    @Test(arguments: [1, 2])
    func aByteOrderMarkStartingALaterLineIsAnError(index: Int) {
        var lines = [header, #"{"string":1,"text":"a"}"#, #"{"seq":0,"kind":"post"}"#]
        lines[index] = "\u{FEFF}" + lines[index]
        let failure = error(lines)
        #expect(
            failure?.description
                == "t.jsonl:\(index + 1):1: error: a byte order mark is allowed only at the start of the trace")
    }

    @Test(arguments: ["2", "0", "1e400", "-0", "18446744073709551616", #""1""#])
    func anUnknownOrMalformedVersionIsAnErrorAtTheVersion(version: String) {
        let line = #"{"format":"observer-harness-trace","version":\#(version)}"#
        let failure = error([line])
        #expect(position(failure) == "1:\(column(of: version, in: line))")
    }

    // MARK: Wrong types

    @Test(arguments: [
        (#"{"seq":0,"kind":5}"#, #""kind" must be a string"#),
        (#"{"string":1,"text":5}"#, #""text" must be a string"#),
        (#"{"object":1,"type":"A","label":[]}"#, #""label" must be a string"#),
        (#"{"registry":1,"name":"c","kind":"subject","dedupe":"no"}"#, #""dedupe" must be true or false"#),
        (#"{"site":1,"file":"F.swift","line":"12"}"#, #""line" must be a whole number, 0 or more"#),
        (#"[1,2,3]"#, "expected a JSON object: an event or table line"),
        (#""seq""#, "expected a JSON object: an event or table line"),
    ])
    func aValueOfTheWrongTypeIsAnErrorOnItsLine(line: String, message: String) {
        let failure = error([header, line])
        #expect(failure?.line == 2)
        #expect(failure?.message == message)
    }

    // MARK: Limits

    @Test func aLineLongerThanTheLimitIsRefusedBeforeItIsParsed() {
        let line = #"{"string":1,"text":""# + String(repeating: "x", count: Recording.maxTraceLineBytes) + #""}"#
        let failure = error([header, line])
        #expect(failure?.description == "t.jsonl:2:1: error: the line is longer than 16 MiB, the limit for one line")
    }

    @Test func causesNestedDeeperThanTheLimitAreAnErrorAtTheCause() {
        let depth = Recording.maxTraceCauseDepth
        var lines = [header, #"{"seq":0,"kind":"post"}"#]
        for sequence in 1...depth { lines.append(#"{"seq":\#(sequence),"kind":"post","cause":\#(sequence - 1)}"#) }
        // Exactly the limit reads.
        #expect(throws: Never.self) { try Recording.readTrace(TraceFixtures.data(lines)) }
        let last = #"{"seq":\#(depth + 1),"kind":"post","cause":\#(depth)}"#
        let failure = error(lines + [last])
        #expect(position(failure) == "\(depth + 3):\(column(of: "\(depth)}", in: last))")
        #expect(failure?.message.contains("nested more than 4096 causes deep") == true)
    }

    @Test func theDocumentedLimitsAreTheOnesInForce() {
        #expect(Recording.maxTraceLineBytes == 16 << 20)
        #expect(Recording.maxTraceCauseDepth == 4_096)
        #expect(TraceReader.maxLineDepth == 256)
    }

    @Test func aFolderIsAnErrorNotACrash() {
        let folder = FileManager.default.temporaryDirectory
        do {
            _ = try Recording.readTrace(from: folder)
            Issue.record("expected a InputError")
        } catch {
            #expect(error.description.hasSuffix(":1:1: error: cannot read the trace: it is a folder, not a file"))
        }
    }
}
