import Foundation
import Testing

@testable import ObserverHarness

@Suite struct TraceReaderTests {
    private let header = #"{"format":"observer-harness-trace","version":1,"name":"t"}"#

    private func validLines() -> [String] {
        TraceFixtures.lines(TraceFixtures.harnessWithFindings().recording().traceData(name: "t"))
    }

    // MARK: Warnings

    @Test func truncatedLastLineIsAWarningWithItsLineNumberAndTheRestIsRead() throws {
        let lines = validLines()
        var text = lines.joined(separator: "\n")
        text.removeLast(7)
        let trace = try Recording.readTrace(Data(text.utf8), path: "cut.jsonl")
        let eventLines = lines.filter { $0.hasPrefix(#"{"seq""#) }.count
        #expect(trace.recording.eventCount == eventLines - 1)
        #expect(trace.warnings.count == 1)
        let warning = try #require(trace.warnings.first)
        #expect(warning.line == lines.count)
        #expect(warning.description.hasPrefix("cut.jsonl:\(lines.count):1: warning: the last line is cut short"))
    }

    @Test func traceCutAtALineBoundaryWarnsThatEventsAreMissing() throws {
        let lines = validLines()
        let trace = try Recording.readTrace(TraceFixtures.data(Array(lines.dropLast(3))), path: "cut.jsonl")
        let declared = lines.filter { $0.hasPrefix(#"{"seq""#) }.count
        #expect(trace.recording.eventCount == declared - 3)
        #expect(
            trace.warnings.map(\.message) == [
                "the header declares \(declared) events but the trace has \(declared - 3); it may have been cut short"
            ])
    }

    @Test func lastLineWithoutNewlineIsReadWhenComplete() throws {
        let lines = validLines()
        let trace = try Recording.readTrace(TraceFixtures.data(lines, finalNewline: false))
        #expect(trace.warnings.isEmpty)
        #expect(trace.recording.eventCount == lines.filter { $0.hasPrefix(#"{"seq""#) }.count)
    }

    // MARK: Errors

    @Test func malformedMiddleLineIsAnErrorAtItsLineAndColumn() throws {
        var lines = validLines()
        let index = try #require(lines.firstIndex { $0.hasPrefix(#"{"seq":3,"#) })
        lines[index] = #"{"seq":3,"kind":"post",}"#
        let error = try #require(TraceFixtures.readError(TraceFixtures.data(lines), path: "bad.jsonl"))
        #expect(error.line == index + 1)
        #expect(error.column == 23)
        #expect(error.description == "bad.jsonl:\(index + 1):23: error: trailing comma in object")
    }

    @Test func truncatedLineFollowedByMoreLinesIsAnError() throws {
        var lines = validLines()
        let index = try #require(lines.firstIndex { $0.hasPrefix(#"{"seq":2,"#) })
        lines[index] = String(lines[index].dropLast(4))
        let error = try #require(TraceFixtures.readError(TraceFixtures.data(lines)))
        #expect(error.line == index + 1)
    }

    @Test func unknownVersionIsAnErrorAtTheVersion() throws {
        let data = TraceFixtures.data([#"{"format":"observer-harness-trace","version":2,"name":"t"}"#])
        let error = try #require(TraceFixtures.readError(data))
        #expect(error.description == "t.jsonl:1:46: error: unsupported trace version 2 (this tool reads version 1)")
    }

    @Test func fileThatIsNotATraceIsAnErrorOnLine1() throws {
        for text in [#"{"format":"observer-harness-report","version":1}"#, "[1,2]", "hello", #"{"version":1}"#] {
            let error = try #require(TraceFixtures.readError(Data((text + "\n").utf8)))
            #expect(error.line == 1)
            #expect(error.message.contains("not an observer-harness trace"), "\(error)")
        }
        let empty = try #require(TraceFixtures.readError(Data()))
        #expect(empty.description.hasPrefix("t.jsonl:1:1: error: the trace is empty"))
        let blank = try #require(TraceFixtures.readError(Data("\n \n".utf8)))
        #expect(blank.message == "the trace has no header line")
    }

    @Test func unknownEventKindIsAnErrorAtTheKind() throws {
        let data = TraceFixtures.data([header, #"{"seq":0,"kind":"teleport"}"#])
        let error = try #require(TraceFixtures.readError(data))
        #expect(error.description == #"t.jsonl:2:17: error: unknown event kind "teleport""#)
    }

    @Test func unknownFieldIsAnErrorAtTheKey() throws {
        let event = try #require(
            TraceFixtures.readError(TraceFixtures.data([header, #"{"seq":0,"kind":"post","colour":1}"#])))
        #expect(event.description == #"t.jsonl:2:24: error: unknown field "colour" in an event line"#)
        let table = try #require(
            TraceFixtures.readError(TraceFixtures.data([header, #"{"string":1,"text":"a","x":2}"#])))
        #expect(table.description == #"t.jsonl:2:24: error: unknown field "x" in a string line"#)
        let headerField = try #require(
            TraceFixtures.readError(
                TraceFixtures.data(
                    [#"{"format":"observer-harness-trace","version":1,"extra":true}"#])))
        #expect(headerField.message == #"unknown field "extra" in the header"#)
    }

    @Test func idOutOfRangeIsAnErrorAtTheIdNotACrash() throws {
        let cases: [(String, String)] = [
            (
                #"{"seq":0,"kind":"add","object":99}"#,
                "object 99 is not defined (object lines before this one define ids 1…1)"
            ),
            (#"{"seq":0,"kind":"post","subject":4294967296}"#, "object 4294967296 is not defined"),
            (#"{"seq":0,"kind":"post","channel":2}"#, "string 2 is not defined"),
            (#"{"seq":0,"kind":"post","site":1}"#, "site 1 is not defined (no site line comes before this one)"),
            (#"{"seq":0,"kind":"post","registry":1}"#, "registry 1 is not defined"),
            (#"{"seq":0,"kind":"state-set","registration":5}"#, "string 5 is not defined"),
            (#"{"seq":0,"kind":"post","thread":70000}"#, "thread 70000 is out of range"),
            (#"{"seq":0,"kind":"post","flags":256}"#, "flags 256 is not a flag set"),
        ]
        for (event, message) in cases {
            let lines = [header, #"{"string":1,"text":"a"}"#, #"{"object":1,"type":"T"}"#, event]
            let error = try #require(TraceFixtures.readError(TraceFixtures.data(lines)))
            #expect(error.line == 4)
            #expect(error.message.hasPrefix(message), "\(error)")
            // The column points at the offending value.
            let key = event.split(separator: ",").last!.split(separator: ":").first!
            let valueOffset = event.range(of: "\(key):")!.upperBound.utf16Offset(in: event)
            #expect(error.column == valueOffset + 1, "\(error)")
        }
    }

    @Test func sequenceNumbersMustCountUpFromZero() throws {
        let skipped = TraceFixtures.data([header, #"{"seq":0,"kind":"post"}"#, #"{"seq":2,"kind":"post"}"#])
        let error = try #require(TraceFixtures.readError(skipped))
        #expect(
            error.description == "t.jsonl:3:8: error: event 2 is out of order: the next event is 1 "
                + "(events are numbered 0, 1, 2, … in order)")
        let repeated = TraceFixtures.data([header, #"{"seq":0,"kind":"post"}"#, #"{"seq":0,"kind":"post"}"#])
        #expect(TraceFixtures.readError(repeated)?.line == 3)
        let missing = TraceFixtures.data([header, #"{"kind":"post"}"#])
        #expect(TraceFixtures.readError(missing)?.message == #"an event line needs "seq""#)
        let noKind = TraceFixtures.data([header, #"{"seq":0}"#])
        #expect(TraceFixtures.readError(noKind)?.message == #"an event line needs "kind""#)
    }

    @Test func causeMustBeAnEarlierEvent() throws {
        let data = TraceFixtures.data([header, #"{"seq":0,"kind":"post"}"#, #"{"seq":1,"kind":"deliver","cause":1}"#])
        let error = try #require(TraceFixtures.readError(data))
        #expect(error.description == "t.jsonl:3:35: error: cause 1 is not an earlier event (this is event 1)")
    }

    @Test func tableIdsMustBeDenseAndStartAtOne() throws {
        let gap = try #require(TraceFixtures.readError(TraceFixtures.data([header, #"{"string":2,"text":"a"}"#])))
        #expect(
            gap.description == "t.jsonl:2:11: error: string 2 is out of order: the next string id is 1 "
                + "(table ids must be 1, 2, 3, … in order)")
        let zero = try #require(
            TraceFixtures.readError(TraceFixtures.data([header, #"{"site":0,"file":"a","line":1}"#])))
        #expect(zero.message.hasSuffix("(id 0 is reserved and never written)"))
    }

    @Test func tableLinesCheckTheirFields() throws {
        let cases: [(String, String)] = [
            (#"{"string":1}"#, #"a string line needs "text""#),
            (#"{"string":1,"text":3}"#, #""text" must be a string"#),
            (#"{"object":1,"label":"x"}"#, #"an object line needs "type""#),
            (
                #"{"registry":1,"name":"c","kind":"bus"}"#,
                #""kind" must be "notification-center", "subject", "property", "delegate" or "observable", not "bus""#
            ),
            (
                #"{"registry":1,"name":"c","kind":"subject","order":"random"}"#,
                #""order" must be "registration" or "unspecified""#
            ),
            (#"{"registry":1,"name":"c","kind":"subject","dedupe":1}"#, #""dedupe" must be true or false"#),
            (#"{"site":1,"file":"a","line":-1}"#, #""line" must be a whole number, 0 or more"#),
            (
                #"{"site":1,"file":"a","line":18446744073709551615}"#,
                #""line" must be a whole number from 0 to 9223372036854775807"#
            ),
            (
                #"{"string":1,"object":1,"text":"a"}"#,
                #"a table line defines one entry, but this line has "string" and "object""#
            ),
            (#"{"text":"a"}"#, "expected an event line"),
            ("[]", "expected a JSON object"),
        ]
        for (line, message) in cases {
            let error = try #require(TraceFixtures.readError(TraceFixtures.data([header, line])))
            #expect(error.line == 2)
            #expect(error.message.hasPrefix(message), "\(error)")
        }
    }

    @Test func moreEventsThanTheHeaderDeclaresIsAnError() throws {
        let data = TraceFixtures.data([
            #"{"format":"observer-harness-trace","version":1,"events":1}"#,
            #"{"seq":0,"kind":"post"}"#, #"{"seq":1,"kind":"post"}"#,
        ])
        let error = try #require(TraceFixtures.readError(data))
        #expect(error.line == 3)
        #expect(error.message == "more events than the 1 the header declares")
    }

    @Test func missingFileIsAnErrorNamingThePathAsGiven() throws {
        let url = URL(fileURLWithPath: "no-such-dir-\(UUID().uuidString)/missing.trace.jsonl")
        do {
            _ = try Recording.readTrace(from: url)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("\(url.relativePath):1:1: error: cannot read the trace"))
        }
    }

    @Test func fastAndJSONPathsReadTheSameEvents() throws {
        // Every event line once as written (fast path), once with a space (parser path).
        let recording = TraceFixtures.everyKindRecording()
        let lines = TraceFixtures.lines(recording.traceData())
        let spaced = lines.map { $0.hasPrefix(#"{"seq""#) ? "{ " + $0.dropFirst() : $0 }
        let fast = try Recording.readTrace(TraceFixtures.data(lines)).recording
        let parsed = try Recording.readTrace(TraceFixtures.data(spaced)).recording
        #expect(Array(fast.events) == Array(parsed.events))
    }

    @Test func hostileInputNeverCrashesTheReaderOrTheAnalysis() {
        // Deterministic mutations of a valid trace: each either reads (and then
        // analyses) or fails with a InputError, never traps.
        let original = Array(TraceFixtures.harnessWithFindings().recording().traceData(name: "t"))
        var generator = SplitMix64(seed: 0x7ACE)
        let replacements = Array(#"0123456789",:{}[]"\ -ex"#.utf8) + [0x0A, 0xFF, 0xC3]
        var read = 0, failed = 0
        for _ in 0..<1_500 {
            var bytes = original
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 4 {
                case 0: bytes[position] = replacements[Int(generator.next() % UInt64(replacements.count))]
                case 1: bytes.remove(at: position)
                case 2: bytes.insert(replacements[Int(generator.next() % UInt64(replacements.count))], at: position)
                default: bytes.removeSubrange(position...)
                }
                if bytes.isEmpty { break }
            }
            do {
                let trace = try Recording.readTrace(Data(bytes))
                _ = trace.analyze().jsonText()
                read += 1
            } catch {
                #expect(error.line >= 1)
                failed += 1
            }
        }
        #expect(read > 0 && failed > 0)
    }
}
