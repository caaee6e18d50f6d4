import Foundation
import Testing

@testable import ObserverHarness

@Suite struct TraceWriterTests {
    private func smallRecording() -> Recording {
        Recording(
            events: EventLog([
                Event(kind: .track, site: 1, channel: 1, object: 1, time: 81_234_567, thread: 1),
                Event(
                    kind: .add, flags: .weak, site: 1, registry: 1, channel: 2, object: 1, registration: 1,
                    time: 81_234_890, thread: 1),
                Event(kind: .post, site: 1, registry: 1, channel: 2, time: 81_235_012, thread: 1),
                Event(
                    kind: .deliver, registry: 1, channel: 2, object: 1, registration: 1, cause: 2,
                    time: 81_235_101, thread: 1),
                Event(kind: .step, cause: 0),
            ]),
            strings: ["", "CartBadge", "cartDidChange"],
            objects: [ObjectInfo(typeName: "", label: nil), ObjectInfo(typeName: "CartBadge", label: "badge")],
            registries: [
                RegistryInfo(name: "", kind: .subject), RegistryInfo(name: "center", kind: .notificationCenter),
            ],
            sites: [CallSite(file: "", line: 0), CallSite(file: "AppTests/CartTests.swift", line: 12, column: 9)],
            siteLocations: [nil, nil])
    }

    @Test func writesHeaderThenTablesThenEventsOmittingZeroFields() {
        let lines = TraceFixtures.lines(smallRecording().traceData(name: "checkout"))
        #expect(
            lines == [
                #"{"format":"observer-harness-trace","version":1,"name":"checkout","events":5}"#,
                #"{"string":1,"text":"CartBadge"}"#,
                #"{"string":2,"text":"cartDidChange"}"#,
                #"{"object":1,"type":"CartBadge","label":"badge"}"#,
                #"{"registry":1,"name":"center","kind":"notification-center","dedupe":false,"order":"unspecified"}"#,
                #"{"site":1,"file":"AppTests/CartTests.swift","line":12,"column":9}"#,
                #"{"seq":0,"kind":"track","t":81234567,"thread":1,"site":1,"channel":1,"object":1}"#,
                #"{"seq":1,"kind":"add","t":81234890,"thread":1,"site":1,"registry":1,"channel":2,"object":1,"registration":1,"flags":1}"#,
                #"{"seq":2,"kind":"post","t":81235012,"thread":1,"site":1,"registry":1,"channel":2}"#,
                #"{"seq":3,"kind":"deliver","t":81235101,"thread":1,"registry":1,"channel":2,"object":1,"registration":1,"cause":2}"#,
                #"{"seq":4,"kind":"step","cause":0}"#,
            ])
    }

    @Test func everyLineIsOneValidJSONObject() throws {
        let data = TraceFixtures.everyKindRecording().traceData(name: "every \"kind\"")
        #expect(data.last == UInt8(ascii: "\n"))
        for line in TraceFixtures.lines(data) {
            let value = try JSONParser.parseValue(Array(line.utf8))
            #expect(value.objectValue != nil)
        }
    }

    @Test func integersAtEveryWidthAreWrittenExactly() throws {
        // The writer formats integers by hand, two digits at a time.
        var values: [UInt64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 65_535, 4_294_967_295]
        var power: UInt64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        values.append(UInt64(Int.max))
        let events = values.map { Event(kind: .post, time: $0) }
        let recording = Recording(
            events: EventLog(events), strings: [""], objects: [ObjectInfo(typeName: "", label: nil)],
            registries: [RegistryInfo(name: "", kind: .subject)],
            sites: [CallSite(file: "", line: 0)], siteLocations: [nil])
        let lines = TraceFixtures.lines(recording.traceData()).dropFirst()
        for (line, value) in zip(lines, values) {
            let parsed = try JSONParser.parseValue(Array(line.utf8))
            if value == 0 {
                #expect(parsed["t"] == nil)
            } else {
                #expect(parsed["t"] == .int(Int(value)), "time \(value) was written as \(line)")
            }
        }
        let trace = try Recording.readTrace(recording.traceData())
        #expect(trace.recording.events.map(\.time) == values)
    }

    @Test func traceOfALiveHarnessHasNoAbsolutePaths() {
        let harness = TraceFixtures.harnessWithFindings()
        let text = String(decoding: harness.recording().traceData(), as: UTF8.self)
        let thisFile = "\(#filePath)"
        #expect(thisFile.hasPrefix("/"))
        #expect(!text.contains(thisFile))
        #expect(!text.contains("\"file\":\"/"))
        #expect(text.contains("ObserverHarnessTests/TraceFixtures.swift"))
    }

    @Test func writingIsDeterministicForOneRecording() {
        let recording = TraceFixtures.harnessWithFindings().recording()
        #expect(recording.traceData(name: "x") == recording.traceData(name: "x"))
    }

    /// Writer memory must not grow with the recording: a long one has a table
    /// entry per tracked object, and those go out a block at a time too.
    @Test func tablesLongerThanABlockAreWrittenInBlocks() throws {
        let objects =
            [ObjectInfo(typeName: "", label: nil)]
            + (1...60_000).map { ObjectInfo(typeName: "NotificationObserverToken", label: "screen \($0)") }
        let recording = Recording(
            events: EventLog([Event(kind: .track, object: 60_000)]), strings: [""], objects: objects,
            registries: [RegistryInfo(name: "", kind: .subject)], sites: [CallSite(file: "", line: 0)],
            siteLocations: [nil])
        var blockSizes: [Int] = []
        var bytes = Data()
        TraceWriter(recording: recording).encode(name: "objects") { block in
            blockSizes.append(block.count)
            bytes.append(contentsOf: block)
        }
        #expect(bytes.count > 2 * TraceWriter.blockBytes, "the tables should span several blocks")
        let longestLine = 100
        #expect(blockSizes.allSatisfy { $0 <= TraceWriter.blockBytes + longestLine }, "\(blockSizes)")
        let trace = try Recording.readTrace(bytes)
        #expect(trace.recording.objects == objects)
        #expect(trace.recording.eventCount == 1)
    }
}
