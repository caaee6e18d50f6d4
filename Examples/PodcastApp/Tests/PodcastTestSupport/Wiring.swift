import ObserverHarness
import Podcast

/// One of the app's wirings, as the app had it with a bug and as it is when
/// right: the tests run both inside a harness, and expect `rule` to fire on
/// the buggy one at the line of `file` marked `// bug: <marker>`, and not at
/// all on the clean one.
public struct Wiring: Sendable {
    public let rule: String
    /// The app source file that holds the marker (`Downloads.swift`).
    public let file: String
    /// What follows `// bug: ` on the line the finding must point at.
    public let marker: String
    /// Whether `assertNoLeaks` must fail at the same line as well.
    public let leaks: Bool
    /// Runs the buggy wiring inside the harness's scope; returns what must stay
    /// alive until the findings are checked.
    public let buggy: @MainActor (Harness) -> [AnyObject]
    /// The clean near miss, run the same way.
    public let clean: @MainActor (Harness) -> [AnyObject]

    init(
        _ rule: String, _ file: String, marker: String? = nil, leaks: Bool = false,
        buggy: @escaping @MainActor (Harness) -> [AnyObject], clean: @escaping @MainActor (Harness) -> [AnyObject]
    ) {
        self.rule = rule
        self.file = file
        self.marker = marker ?? rule
        self.leaks = leaks
        self.buggy = buggy
        self.clean = clean
    }

    /// The full marker comment: `// bug: duplicate-registration (observer)`.
    public var markerComment: String { "// bug: \(marker)" }

    /// The marked line of the app's source, if exactly one line has the marker.
    public var expectedLine: Int? { appSourceLine(containing: markerComment, in: file) }

    /// Runs the buggy wiring with `harness`'s registries in place.
    @MainActor public func runBuggy(in harness: Harness) -> [AnyObject] {
        withObserverHarness(harness) { buggy(harness) }
    }

    /// Runs the clean near miss with `harness`'s registries in place.
    @MainActor public func runClean(in harness: Harness) -> [AnyObject] {
        withObserverHarness(harness) { clean(harness) }
    }
}
