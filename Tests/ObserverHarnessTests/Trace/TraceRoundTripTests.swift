import Foundation
import Testing

@testable import ObserverHarness

@Suite struct TraceRoundTripTests {
    /// A recording whose trace spans several of the writer's blocks.
    static func longRecording() -> Recording {
        final class Screen {}
        let harness = Harness()
        let list = harness.observerList(of: Screen.self)
        let screens = (0..<4).map { _ in Screen() }
        for screen in screens { list.add(screen, channel: "Tick") }
        for _ in 0..<5_000 { list.notify(channel: "Tick") { _ in } }
        withExtendedLifetime(screens) {}
        return harness.recording()
    }

    @Test func aTraceWrittenToAFileInBlocksIsTheSameBytesAndReadsBack() throws {
        let recording = Self.longRecording()
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("observer-harness-\(UUID().uuidString).trace.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try recording.writeTrace(to: url, name: "long")
        let written = try Data(contentsOf: url)
        #expect(written.count > 2 * TraceWriter.blockBytes, "the trace should span several blocks")
        #expect(written == recording.traceData(name: "long"))
        let trace = try Recording.readTrace(from: url)
        #expect(trace.name == "long")
        TraceFixtures.expectSameRecording(trace.recording, recording)
    }

    /// Line ends converted to CRLF (git's autocrlf) read as the same
    /// recording: the fast path reads such a line without its CR.
    @Test func aTraceWithCRLFLineEndsReadsTheSame() throws {
        let data = TraceFixtures.everyKindRecording().traceData()
        var crlf = Data()
        for byte in data {
            if byte == UInt8(ascii: "\n") { crlf.append(UInt8(ascii: "\r")) }
            crlf.append(byte)
        }
        TraceFixtures.expectSameRecording(
            try Recording.readTrace(crlf).recording, try Recording.readTrace(data).recording)
    }

    /// The reader holds one block and a partial line: feed it a few bytes at
    /// a time so lines split at every possible place.
    @Test func aTraceReadInSmallPiecesReadsTheSameAsAtOnce() throws {
        let data = TraceFixtures.everyKindRecording().traceData()
        let whole = try Recording.readTrace(data).recording
        for piece in [1, 2, 7, 64] {
            var reader = TraceReader(path: "t.jsonl", expectedBytes: nil)
            var offset = 0
            let result = try reader.read { (buffer) throws(TraceError) -> Int in
                let count = min(piece, buffer.count, data.count - offset)
                data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<offset + count)
                offset += count
                return count
            }
            TraceFixtures.expectSameRecording(result.recording, whole)
        }
    }

    @Test func aLineLongerThanAReadBlockIsRead() throws {
        let recording = Recording(
            events: EventLog([]), strings: ["", String(repeating: "x", count: 5 << 20)],
            objects: [ObjectInfo(typeName: "", label: nil)],
            registries: [RegistryInfo(name: "", kind: .subject)],
            sites: [CallSite(file: "", line: 0)], siteLocations: [nil])
        #expect(5 << 20 > TraceReader.blockBytes)
        let trace = try Recording.readTrace(recording.traceData())
        #expect(trace.recording.strings == recording.strings)
    }

    @Test func liveRecordingReadsBackWithTheSameEventsAndTables() throws {
        let harness = TraceFixtures.harnessWithFindings()
        let recording = harness.recording()
        let trace = try Recording.readTrace(recording.traceData(name: "live"))
        #expect(trace.name == "live")
        #expect(trace.warnings.isEmpty)
        TraceFixtures.expectSameRecording(trace.recording, recording)
    }

    @Test func readTraceAnalysesToTheByteIdenticalReport() throws {
        let harness = TraceFixtures.harnessWithFindings()
        let recording = harness.recording()
        let expected = recording.analyze(name: harness.name)
        let trace = try Recording.readTrace(recording.traceData(name: harness.name))
        #expect(!expected.findings.isEmpty, "the fixture should have findings to compare")
        #expect(trace.analyze().jsonText() == expected.jsonText())
        #expect(trace.recording.analyze(name: harness.name).jsonText() == harness.analyze().jsonText())
    }

    @Test func everyEventKindFlagAndEscapedTableTextRoundTrips() throws {
        let recording = TraceFixtures.everyKindRecording()
        let trace = try Recording.readTrace(recording.traceData())
        #expect(trace.name == "recording")
        TraceFixtures.expectSameRecording(trace.recording, recording)
        let kinds = Set(trace.recording.events.map(\.kind))
        #expect(kinds == Set(EventKind.allCases))
    }

    @Test func harnessWriteTraceWritesAFileThatReadsBackUnderTheHarnessName() throws {
        let harness = TraceFixtures.harnessWithFindings()
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("observer-harness-\(UUID().uuidString).trace.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try harness.writeTrace(to: url)
        let trace = try Recording.readTrace(from: url)
        #expect(trace.name == harness.name)
        #expect(trace.analyze().jsonText() == harness.analyze().jsonText())
    }

    @Test func scenarioReplayRecordingRoundTrips() throws {
        // Replays record steps, invocations, effects and retains, which live code does not.
        let text = #"""
            {"format": "observer-harness-scenario", "version": 1, "scenario": "round-trip",
             "registries": {"center": {"kind": "notification-center"}},
             "steps": [
               {"op": "create", "object": "a", "type": "Screen",
                "methods": {"tap": [{"post": {"registry": "center", "channel": "Go"}}]}},
               {"op": "create", "object": "b", "type": "Screen"},
               {"op": "retain", "holder": "a", "target": "b"},
               {"op": "observe", "registry": "center", "observer": "b", "channel": "Go",
                "handler": [{"increment": "n"}, {"append": "log", "value": "x"}, {"read": "n"}], "site": "B.swift:3"},
               {"op": "invoke", "object": "a", "method": "tap", "site": "A.swift:9"},
               {"op": "release", "object": "a"}
             ]}
            """#
        let scenario = try Scenario.parse(Array(text.utf8), path: "round-trip.scenario.json")
        let recording = try Replay(scenario, schedule: Schedule()).run().recording
        let trace = try Recording.readTrace(recording.traceData(name: "round-trip"))
        TraceFixtures.expectSameRecording(trace.recording, recording)
        let kinds = Set(recording.events.map { $0.kind })
        #expect(kinds.isSuperset(of: [EventKind.step, .invoke, .retain, .increment, .append, .read, .deliver]))
        #expect(trace.analyze().jsonText() == recording.analyze(name: "round-trip").jsonText())
    }

    @Test func readerAcceptsWhitespaceReorderedKeysAndInterleavedTables() throws {
        // The same events as the writer's, in a form only the JSON parser path accepts.
        let recording = TraceFixtures.everyKindRecording()
        let lines = TraceFixtures.lines(recording.traceData())
        var reshaped: [String] = [lines[0]]
        var events: [String] = []
        for line in lines.dropFirst() {
            guard line.hasPrefix(#"{"seq""#) else { reshaped.append(line); continue }
            let object = try JSONParser.parseValue(Array(line.utf8)).objectValue!
            let members = object.keys.reversed().map { "\"\($0)\" : \(object[$0]!.serialized(.compact))" }
            events.append("{ " + members.joined(separator: " , ") + " }\r")
        }
        // Tables interleaved: the last table line moves after the first event, which does not use it.
        let lastTable = reshaped.removeLast()
        reshaped.append(events[0])
        reshaped.append(lastTable)
        reshaped.append("")
        reshaped.append(contentsOf: events.dropFirst())
        let trace = try Recording.readTrace(TraceFixtures.data(reshaped))
        TraceFixtures.expectSameRecording(trace.recording, recording)
    }

    @Test func emptyRecordingRoundTrips() throws {
        let recording = Harness().recording()
        let data = recording.traceData(name: "empty")
        #expect(
            TraceFixtures.lines(data) == [#"{"format":"observer-harness-trace","version":1,"name":"empty","events":0}"#]
        )
        let trace = try Recording.readTrace(data)
        #expect(trace.recording.eventCount == 0)
        #expect(trace.warnings.isEmpty)
    }
}
