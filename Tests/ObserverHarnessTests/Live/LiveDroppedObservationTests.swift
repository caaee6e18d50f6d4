import Foundation
import Testing

@testable import ObserverHarness

extension Live {
    /// `_ = property.observe { … }` ends the observation at once, as
    /// `NSKeyValueObservation` does: reported as `discarded-token`.
    @Suite struct DroppedObservations {
        final class Cover {}

        final class CoverView {
            var observation: PropertyObservation?
            var updates = 0
            static let droppedLine: UInt = #line + 3

            func bindDropping(_ image: ObservedProperty<String>) {
                _ = image.observe { _ in }
            }
            func bindKeeping(_ image: ObservedProperty<String>) {
                observation = image.observe { [weak self] _ in self?.updates += 1 }
            }
        }

        @Test func anObservationDroppedAtOnceIsReportedAtItsLine() throws {
            let harness = Harness()
            let cover = Cover()
            let image = harness.observedProperty("image", of: cover, initialValue: "")
            CoverView().bindDropping(image)
            image.set("cover.png")

            let findings = harness.analyze().live("discarded-token")
            let finding = try #require(findings.first)
            #expect(findings.count == 1)
            #expect(finding.site?.line == Int(CoverView.droppedLine))
            #expect(finding.message.contains("its handler never runs"))
        }

        @Test func anObservationKeptByItsViewIsClean() {
            let harness = Harness()
            let cover = Cover()
            let image = harness.observedProperty("image", of: cover, initialValue: "")
            let view = CoverView()
            view.bindKeeping(image)
            image.set("cover.png")

            #expect(view.updates == 1)
            #expect(harness.analyze().live("discarded-token").isEmpty)
        }

        /// The observation ending with its view is how it is meant to end.
        @Test func anObservationThatEndsWithItsViewIsClean() {
            let harness = Harness()
            let cover = Cover()
            let image = harness.observedProperty("image", of: cover, initialValue: "")
            var view: CoverView? = CoverView()
            view!.bindKeeping(image)
            image.set("cover.png")
            view = nil
            image.set("other.png")

            let report = harness.analyze()
            #expect(report.live("discarded-token").isEmpty)
            #expect(report.live("notify-after-dealloc").isEmpty)
        }
    }
}
