import Foundation
import Testing

@testable import ObserverHarness

/// The interface's registries, instrumented: protocol-typed lists, typed
/// delegate calls, and call sites forwarded through app wrappers.
@Suite struct ProtocolTypedRegistryTests {
    protocol ThemeObserver: AnyObject {
        func themeDidChange(_ theme: String)
    }

    final class Screen: ThemeObserver {
        var themes: [String] = []
        func themeDidChange(_ theme: String) { themes.append(theme) }
    }

    /// An app wrapper that forwards its caller's site to the list.
    final class ThemeStore {
        let observers: ObserverList<any ThemeObserver>

        init(observers: ObserverList<any ThemeObserver> = ObserverList(hold: .weak)) {
            self.observers = observers
        }

        func addObserver(
            _ observer: any ThemeObserver,
            fileID: StaticString = #fileID, filePath: StaticString = #filePath,
            line: UInt = #line, column: UInt = #column
        ) {
            observers.add(observer, fileID: fileID, filePath: filePath, line: line, column: column)
        }

        func apply(_ theme: String) { observers.notify { $0.themeDidChange(theme) } }
    }

    @Test func aListOfAnObserverProtocolRecordsAndDelivers() {
        let harness = Harness()
        let list = harness.observerList(of: (any ThemeObserver).self, hold: .weak)
        let screen = Screen()
        list.add(screen)
        list.notify { $0.themeDidChange("dark") }
        #expect(screen.themes == ["dark"])
        #expect(list.count == 1)
        #expect(harness.recording().recordedKinds == [.track, .add, .post, .deliver])
        #expect(harness.recording().recordedEvents(.add)[0].event.flags.hold == .weak)
    }

    @Test func aWrapperForwardsItsCallersSiteIntoTheFinding() throws {
        let harness = Harness()
        let store = ThemeStore(observers: harness.observerList(of: (any ThemeObserver).self, hold: .weak))
        let screen = Screen()
        let firstLine = #line + 1
        store.addObserver(screen)
        let secondLine = #line + 1
        store.addObserver(screen)
        store.apply("dark")
        let finding = try #require(harness.analyze().findings.first { $0.rule == "duplicate-registration" })
        #expect(finding.message.contains("ProtocolTypedRegistryTests.swift:\(firstLine)"))
        #expect(finding.message.contains("ProtocolTypedRegistryTests.swift:\(secondLine)"))
        #expect(screen.themes == ["dark", "dark"])
    }

    @MainActor protocol CellDelegate: AnyObject {
        func cellDidTap(_ cell: Cell)
    }

    @MainActor final class Cell {
        private let harness: Harness
        private(set) lazy var delegate = harness.delegateSlot(of: self, as: (any CellDelegate).self)
        init(harness: Harness) { self.harness = harness }
        static let callLine = #line + 1
        func tap() { delegate.call { $0.cellDidTap(self) } }
    }

    @MainActor final class List: CellDelegate {
        var taps = 0
        func cellDidTap(_ cell: Cell) { taps += 1 }
    }

    @Test @MainActor func aTypedDelegateCallIsRecordedAtTheCallersLineWithTheDelegate() throws {
        let harness = Harness()
        let cell = Cell(harness: harness)
        let list = List()
        let listID = harness.track(list, label: "list")
        cell.delegate.set(list)
        cell.tap()
        #expect(list.taps == 1)
        let recording = harness.recording()
        let call = recording.recordedEvents(.delegateCall)[0].event
        #expect(call.object == listID.rawValue)
        #expect(recording.recordedKinds.suffix(2) == [.delegateCall, .deliver])
        let site = try #require(recording.site(call.site))
        #expect(site.file.hasSuffix("ProtocolTypedRegistryTests.swift") && site.line == Cell.callLine)
        #expect(recording.string(call.channel) == "CellDelegate", "a typed call is named by its protocol")
    }
}
