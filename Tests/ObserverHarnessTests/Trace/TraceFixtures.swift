import Foundation
import Testing

@testable import ObserverHarness

/// Recordings for the trace tests: one recorded live with findings, one
/// built by hand with every event kind and flag.
enum TraceFixtures {
    final class Screen {}
    final class Cart {}
    protocol ScrollerDelegate: AnyObject { func didScroll() }
    final class Album: ScrollerDelegate { func didScroll() {} }

    /// A harness whose recording uses every registry and has findings:
    /// a duplicate registration, a discarded token, an observer released but
    /// kept alive, a deallocated weak observer, an unobserved post.
    static func harnessWithFindings() -> Harness {
        let harness = Harness(name: "trace-fixture")
        let center = harness.notificationCenter()
        let list = harness.observerList(of: Screen.self, hold: .strong)
        let cart = Cart()
        harness.track(cart, label: "cart")
        let bestSellers = Screen()
        harness.track(bestSellers, label: "bestSellers")
        list.add(bestSellers)
        list.add(bestSellers)
        list.notify { _ in harness.noteAction(.increment("cart.count")) }
        center.addObserver(bestSellers, name: Notification.Name("Tap"), object: cart) { _, _ in }
        do {
            let transient = Screen()
            harness.track(transient, label: "transient")
            center.addObserver(transient, name: Notification.Name("Tap"), object: nil) { _, _ in }
        }
        center.post(name: Notification.Name("Tap"), object: cart)
        _ = center.addObserver(forName: Notification.Name("Tap"), object: nil, queue: nil) { _ in }
        center.post(name: Notification.Name("Tapp"), object: nil)
        let image = harness.observedProperty("image", of: cart, initialValue: 0)
        image.addObserver(bestSellers) { _, _ in }
        image.set(1)
        let slot = harness.delegateSlot(of: cart, as: (any ScrollerDelegate).self)
        let album = Album()
        slot.set(album)
        slot.call { $0.didScroll() }
        harness.noteAction(.set("title", value: "\"Cart\\n\u{1F6D2}\""))
        harness.noteReleased(bestSellers)
        return harness
    }

    /// Every event kind and flag, tables with text that needs escaping, and
    /// ids at the edges of their tables.
    static func everyKindRecording() -> Recording {
        let strings = [
            "", "Cart", "Tap \"quoted\"", "back\\slash", "line\nbreak\ttab\u{01}", "émoji 🛒", "cart.count",
            "[1,{\"a\":null}]",
        ]
        let objects = [
            ObjectInfo(typeName: "", label: nil), ObjectInfo(typeName: "Cart", label: "cart"),
            ObjectInfo(typeName: "Screen", label: nil), ObjectInfo(typeName: "Scré\"en", label: "a \"label\""),
        ]
        let registries = [
            RegistryInfo(name: "", kind: .subject),
            RegistryInfo(name: "center", kind: .notificationCenter),
            RegistryInfo(name: "list", kind: .subject, dedupe: true, order: .registration),
            RegistryInfo(name: "cart.image", kind: .property, dedupe: false, order: .unspecified),
            RegistryInfo(name: "delegate", kind: .delegate, dedupe: false, order: .registration),
        ]
        let sites = [
            CallSite(file: "", line: 0), CallSite(file: "App/Cart.swift", line: 12, column: 9),
            CallSite(file: "Cell.swift", line: 22), CallSite(file: "dir with space/ü.swift", line: 1, column: 1),
        ]
        var events: [Event] = []
        for (index, kind) in EventKind.allCases.enumerated() {
            let sequence = UInt32(events.count)
            events.append(
                Event(
                    kind: kind, flags: EventFlags(rawValue: UInt8(truncatingIfNeeded: 1 << (index % 8))),
                    site: UInt32(index % sites.count), registry: UInt32(index % registries.count),
                    channel: UInt32(index % strings.count), object: UInt32(index % objects.count),
                    subject: UInt32((index + 1) % objects.count),
                    registration: kind.isEffect ? UInt32(strings.count - 1) : UInt32(index * 1000),
                    cause: sequence == 0 ? Event.none : sequence - 1,
                    time: 1_000_000_000_000 + UInt64(index) * 17, thread: UInt16(index % 3)))
        }
        // Extremes: all flags, the largest thread, the largest time, cause 0.
        events.append(
            Event(
                kind: .add, flags: EventFlags(rawValue: 0xFF), site: 3, registry: 4, channel: 7,
                object: 3, subject: 3, registration: UInt32.max - 1, cause: 0,
                time: UInt64(Int.max), thread: UInt16.max))
        events.append(Event(kind: .step))
        return Recording(
            events: EventLog(events), strings: strings, objects: objects, registries: registries,
            sites: sites, siteLocations: Array(repeating: nil, count: sites.count))
    }

    /// The trace's lines, without the final empty one.
    static func lines(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    /// Joins lines back into a trace with a final newline.
    static func data(_ lines: [String], finalNewline: Bool = true) -> Data {
        Data((lines.joined(separator: "\n") + (finalNewline ? "\n" : "")).utf8)
    }

    static func expectSameRecording(
        _ read: Recording, _ written: Recording,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(Array(read.events) == Array(written.events), sourceLocation: sourceLocation)
        #expect(read.strings == written.strings, sourceLocation: sourceLocation)
        #expect(read.objects == written.objects, sourceLocation: sourceLocation)
        #expect(read.registries == written.registries, sourceLocation: sourceLocation)
        #expect(read.sites == written.sites, sourceLocation: sourceLocation)
        #expect(read.siteLocations.count == read.sites.count, sourceLocation: sourceLocation)
    }

    /// Reads a trace expecting an error, and returns it.
    static func readError(
        _ data: Data, path: String = "t.jsonl",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> InputError? {
        do {
            let result = try Recording.readTrace(data, path: path)
            Issue.record(
                "expected a InputError, read \(result.recording.eventCount) events", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }
}
