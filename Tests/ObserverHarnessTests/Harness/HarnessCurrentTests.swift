import Foundation
import ObserverHarness
import Testing

/// `Harness.current`: the harness of the innermost `withObserverHarness`
/// scope, wherever that scope reaches, and nil outside.
@Suite struct HarnessCurrentTests {
    @Test func itIsNilOutsideAnyScope() {
        #expect(Harness.current == nil)
    }

    @Test func itIsTheHarnessOfTheInnermostScope() {
        let outer = Harness(), inner = Harness()
        withObserverHarness(outer) {
            #expect(Harness.current === outer)
            withObserverHarness(inner) { #expect(Harness.current === inner) }
            #expect(Harness.current === outer)
        }
        #expect(Harness.current == nil)
    }

    @Test func itFollowsTheScopeAcrossAwaitsAndIntoChildTasks() async {
        let harness = Harness()
        await withObserverHarness(harness) {
            await Task.yield()
            #expect(Harness.current === harness)
            let inChild = await Task { Harness.current }.value
            #expect(inChild === harness)
        }
    }

    /// The scope does not keep a harness alive: the registries hold it weakly.
    @Test func aScopeDoesNotKeepItsHarnessAlive() {
        weak var released: Harness?
        do {
            let harness = Harness()
            released = harness
            withObserverHarness(harness) { #expect(Harness.current === harness) }
        }
        #expect(released == nil)
    }
}
