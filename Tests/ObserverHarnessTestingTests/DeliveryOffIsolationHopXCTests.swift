import Foundation
import ObserverHarness
import ObserverHarnessTesting
import XCTest

private let meterReading = Notification.Name("MeterReading")

/// An energy meter registered on its actor: `hops` hands the watts to the
/// actor; otherwise the block adds them itself, off the actor.
private actor XCEnergyMeter {
    let harness: Harness
    let center: InstrumentedNotificationCenter
    private var token: (any NSObjectProtocol)?
    private var total = 0
    nonisolated(unsafe) private var unsafeTotal = 0

    init(harness: Harness, center: InstrumentedNotificationCenter) {
        self.harness = harness
        self.center = center
    }

    func start(hops: Bool) {
        let harness = harness
        if hops {
            token = center.addObserver(forName: meterReading, object: nil, queue: nil) { [weak self] note in
                let watts = note.userInfo?["watts"] as? Int ?? 0
                Task { await self?.ingest(watts) }
            }
        } else {
            let meter = self
            token = center.addObserver(forName: meterReading, object: nil, queue: nil) { note in
                meter.unsafeTotal += note.userInfo?["watts"] as? Int ?? 0
                harness.noteAction(.increment("meter.total"))
            }
        }
    }

    func ingest(_ watts: Int) {
        total += watts
        harness.noteAction(.increment("meter.total"))
    }

    func stop() { if let token { center.removeObserver(token) } }
}

/// `delivery-off-isolation` from XCTest: the hop-only handlers are clean, the
/// ones that touch state off their actor are errors.
final class DeliveryOffIsolationHopXCTests: XCTestCase {
    @MainActor func testAMeterBlockThatOnlyHopsOntoItsActorIsClean() async {
        let harness = Harness()
        let meter = XCEnergyMeter(harness: harness, center: harness.notificationCenter())
        await meter.start(hops: true)
        meter.center.post(name: meterReading, object: nil, userInfo: ["watts": 40])
        await meter.stop()
        assertFindings(harness, .none())
    }

    @MainActor func testAMeterBlockThatTouchesTheActorsStateIsAnError() async {
        let harness = Harness()
        let meter = XCEnergyMeter(harness: harness, center: harness.notificationCenter())
        await meter.start(hops: false)
        meter.center.post(name: meterReading, object: nil, userInfo: ["watts": 40])
        await meter.stop()
        assertFindings(harness, .exactly(["delivery-off-isolation"]))
        let finding = harness.analyze().findings.first { $0.rule == "delivery-off-isolation" }
        XCTAssertEqual(finding?.site?.file, "ObserverHarnessTestingTests/DeliveryOffIsolationHopXCTests.swift")
        XCTAssertEqual(finding?.message.contains("changed \"meter.total\" there"), true, finding?.message ?? "")
    }

    @MainActor func testAMainActorBlockIsJudgedByWhatItTouchesOffTheMainActor() async {
        for hops in [true, false] {
            let harness = Harness()
            let center = harness.notificationCenter()
            let token = center.addObserver(forName: meterReading, object: nil, queue: nil) { _ in
                if hops {
                    Task { @MainActor in harness.noteAction(.increment("dashboard.readings")) }
                } else {
                    harness.noteAction(.increment("dashboard.readings"))
                }
            }
            await Task.detached { center.post(name: meterReading, object: nil) }.value
            center.removeObserver(token)
            assertFindings(harness, hops ? .none() : .exactly(["delivery-off-isolation"]))
        }
    }
}
