import Foundation
import Testing

@testable import ObserverHarness

extension Rules {
    /// `delivery-off-isolation` tells a handler that touches isolated state
    /// off its actor (the bug) from one that only hops onto it with a `Task`
    /// (the rule's own fix): for blocks, and for observer lists.
    @Suite struct DeliveryOffIsolationHops {
        static let rule = "delivery-off-isolation"
        static let reading = Notification.Name("MeterReading")

        /// An energy meter: an actor whose block reads the watts from the
        /// notification. `hops` hands them to the actor; otherwise the block
        /// adds them itself, through state the compiler was told is safe.
        actor EnergyMeter {
            let harness: Harness
            let center: InstrumentedNotificationCenter
            private var token: (any NSObjectProtocol)?
            private var total = 0
            nonisolated(unsafe) private var unsafeTotal = 0
            private(set) var registrationLine = 0

            init(harness: Harness, center: InstrumentedNotificationCenter) {
                self.harness = harness
                self.center = center
            }

            func start(hops: Bool) {
                let harness = harness
                if hops {
                    registrationLine = #line + 1
                    token = center.addObserver(forName: EnergyMeter.readingName, object: nil, queue: nil) {
                        [weak self] note in
                        let watts = note.userInfo?["watts"] as? Int ?? 0
                        Task { await self?.ingest(watts) }
                    }
                } else {
                    let meter = self
                    registrationLine = #line + 1
                    token = center.addObserver(forName: EnergyMeter.readingName, object: nil, queue: nil) { note in
                        meter.unsafeTotal += note.userInfo?["watts"] as? Int ?? 0  // the race
                        harness.noteAction(.increment("meter.total"))
                    }
                }
            }

            func ingest(_ watts: Int) {
                total += watts
                harness.noteAction(.increment("meter.total"))
            }

            func stop() { if let token { center.removeObserver(token) } }

            static let readingName = DeliveryOffIsolationHops.reading
        }

        /// The meter whose hop records nothing: the harness sees nothing of
        /// the task, which may end before the handler returns.
        actor QuietMeter {
            let center: InstrumentedNotificationCenter
            private var token: (any NSObjectProtocol)?
            private var total = 0

            init(center: InstrumentedNotificationCenter) { self.center = center }

            func start() {
                token = center.addObserver(forName: EnergyMeter.readingName, object: nil, queue: nil) {
                    [weak self] note in
                    let watts = note.userInfo?["watts"] as? Int ?? 0
                    Task { await self?.ingest(watts) }
                }
            }

            func ingest(_ watts: Int) { total += watts }
            func stop() { if let token { center.removeObserver(token) } }
        }

        /// Whether its task ended before the handler returned or not, the
        /// hop-only meter is clean: run many times, so both timings occur.
        @Test @MainActor func aMeterBlockWhoseHopRecordsNothingIsCleanAtAnyTiming() async {
            for _ in 0..<50 {
                let harness = Harness()
                let meter = QuietMeter(center: harness.notificationCenter())
                await meter.start()
                meter.center.post(name: Self.reading, object: nil, userInfo: ["watts": 40])
                await meter.stop()
                harness.analyze().expectNone(of: Self.rule)
            }
        }

        /// A dashboard on the main actor, whose block `hops` back to it.
        @MainActor final class Dashboard {
            let harness: Harness
            let center: InstrumentedNotificationCenter
            private var token: (any NSObjectProtocol)?
            private(set) var registrationLine = 0

            init(harness: Harness, center: InstrumentedNotificationCenter) {
                self.harness = harness
                self.center = center
            }

            func start(hops: Bool) {
                let harness = harness
                if hops {
                    registrationLine = #line + 1
                    token = center.addObserver(forName: DeliveryOffIsolationHops.reading, object: nil, queue: nil) {
                        _ in
                        Task { @MainActor in harness.noteAction(.increment("dashboard.readings")) }
                    }
                } else {
                    registrationLine = #line + 1
                    token = center.addObserver(forName: DeliveryOffIsolationHops.reading, object: nil, queue: nil) {
                        _ in
                        harness.noteAction(.increment("dashboard.readings"))  // main-actor state, off the main actor
                    }
                }
            }

            func stop() { if let token { center.removeObserver(token) } }
        }

        // MARK: Blocks registered on an actor, posted from the main actor

        @Test @MainActor func aMeterBlockThatOnlyHopsOntoItsActorIsClean() async {
            let harness = Harness()
            let meter = EnergyMeter(harness: harness, center: harness.notificationCenter())
            await meter.start(hops: true)
            meter.center.post(name: Self.reading, object: nil, userInfo: ["watts": 40])
            await meter.stop()
            let report = harness.analyze()
            report.expectNone(of: Self.rule)
            let recording = harness.recording()
            let hops = (0..<recording.events.count).map { recording.events[$0] }.filter { $0.kind == .hop }
            #expect(!hops.isEmpty, "the handler's Task is seen")
            #expect(hops.allSatisfy { !$0.flags.contains(.offIsolation) })
        }

        @Test @MainActor func aMeterBlockThatTouchesTheActorsStateIsAnErrorAtItsRegistration() async throws {
            let harness = Harness()
            let meter = EnergyMeter(harness: harness, center: harness.notificationCenter())
            await meter.start(hops: false)
            meter.center.post(name: Self.reading, object: nil, userInfo: ["watts": 40])
            await meter.stop()
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.severity == .error)
            #expect(finding.site?.line == (await meter.registrationLine))
            #expect(finding.message.contains("changed \"meter.total\""), "\(finding.message)")
            #expect(finding.message.contains("set up on an actor"), "\(finding.message)")
        }

        @Test(arguments: [true, false])
        @MainActor func aTraceOfTheMeterReadsBackToTheSameReport(hops: Bool) async throws {
            let harness = Harness()
            let meter = EnergyMeter(harness: harness, center: harness.notificationCenter())
            await meter.start(hops: hops)
            meter.center.post(name: Self.reading, object: nil, userInfo: ["watts": 40])
            await meter.stop()
            let trace = try Recording.readTrace(harness.recording().traceData())
            let findings = trace.analyze().findings
            #expect(findings.map(\.message) == harness.analyze().findings.map(\.message))
            #expect(findings.map(\.rule) == (hops ? [] : [Self.rule]))
        }

        // MARK: Blocks registered on the main actor, posted from the background

        @Test @MainActor func aMainActorBlockThatOnlyHopsBackIsClean() async {
            let harness = Harness()
            let dashboard = Dashboard(harness: harness, center: harness.notificationCenter())
            dashboard.start(hops: true)
            let center = dashboard.center
            await Task.detached { center.post(name: Self.reading, object: nil) }.value
            dashboard.stop()
            harness.analyze().expectNone(of: Self.rule)
        }

        @Test @MainActor func aMainActorBlockThatTouchesStateOffTheMainActorIsAnErrorAtItsRegistration() async throws {
            let harness = Harness()
            let dashboard = Dashboard(harness: harness, center: harness.notificationCenter())
            dashboard.start(hops: false)
            let center = dashboard.center
            await Task.detached { center.post(name: Self.reading, object: nil) }.value
            dashboard.stop()
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.site?.line == dashboard.registrationLine)
            #expect(finding.message.contains("changed \"dashboard.readings\" there"), "\(finding.message)")
        }

        @Test(arguments: [true, false])
        @MainActor func aBackgroundPostHarnessJudgesTheSameWay(hops: Bool) {
            let harness = Harness(posts: .background)
            let dashboard = Dashboard(harness: harness, center: harness.notificationCenter())
            dashboard.start(hops: hops)
            dashboard.center.post(name: Self.reading, object: nil)
            dashboard.stop()
            #expect(harness.analyze().findings(of: Self.rule).count == (hops ? 0 : 1))
        }

        /// The handler's `Task` runs its work off the main actor too. A
        /// detached task inherits nothing, so what it does is nobody's
        /// handler's: live, that handler is not reported (it recorded nothing).
        @Test(arguments: [false, true])
        @MainActor func hoppedWorkThatStillRunsOffTheMainActorIsAnError(detached: Bool) async throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            let (ran, ranContinuation) = AsyncStream<Void>.makeStream()
            let work: @Sendable () -> Void = {
                harness.noteAction(.increment("dashboard.readings"))
                ranContinuation.yield()
            }
            let token = center.addObserver(forName: Self.reading, object: nil, queue: nil) { _ in
                if detached { Task.detached { work() } } else { Task { work() } }
            }
            await Task.detached { center.post(name: Self.reading, object: nil) }.value
            var iterator = ran.makeAsyncIterator()
            _ = await iterator.next()
            center.removeObserver(token)
            guard !detached else {
                harness.analyze().expectNone(of: Self.rule)
                return
            }
            let finding = try #require(harness.analyze().onlyFinding(of: Self.rule))
            #expect(finding.message.contains("work the handler started"), "\(finding.message)")
        }

        // MARK: Observer lists

        final class ReadingView: @unchecked Sendable {
            let harness: Harness
            let hops: Bool
            init(harness: Harness, hops: Bool) {
                self.harness = harness
                self.hops = hops
            }

            func meterChanged() {
                let harness = harness
                if hops {
                    Task { @MainActor in harness.noteAction(.set("view.watts", value: "40")) }
                } else {
                    harness.noteAction(.set("view.watts", value: "40"))
                }
            }
        }

        @Test(arguments: [true, false])
        @MainActor func anObserverListHandlerIsJudgedByWhatItTouches(hops: Bool) async throws {
            let harness = Harness()
            let list = harness.observerList(of: ReadingView.self, hold: .strong)
            let view = ReadingView(harness: harness, hops: hops)
            let addLine = #line + 1
            list.add(view)
            await Task.detached { list.notify { $0.meterChanged() } }.value
            let findings = harness.analyze().findings(of: Self.rule)
            if hops {
                #expect(findings.isEmpty, "\(findings.map(\.message))")
            } else {
                let finding = try #require(findings.first)
                #expect(findings.count == 1)
                #expect(finding.site?.line == addLine)
            }
        }

        // MARK: Typed messages: never judged, so both hop forms are clean

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @Test @MainActor func aMainActorMessageObserverThatHopsOntoAnActorIsClean() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            let meter = EnergyMeter(harness: harness, center: center)
            let cart = LiveCart()
            let token = center.addObserver(of: cart, for: LiveCartDidChange.self) { message in
                Task { await meter.ingest(message.count) }
            }
            center.post(LiveCartDidChange(count: 40), subject: cart)
            center.removeObserver(token)
            harness.analyze().expectNone(of: Self.rule)
        }

        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @Test @MainActor func anAsyncMessageObserverThatAwaitsItsActorIsClean() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            let meter = EnergyMeter(harness: harness, center: center)
            let cart = LiveCart()
            let token = center.addObserver(of: cart, for: LiveCartSynced.self) { message in
                await meter.ingest(message.revision)
            }
            center.post(LiveCartSynced(revision: 3), subject: cart)
            await harness.settle()
            center.removeObserver(token)
            harness.analyze().expectNone(of: Self.rule)
        }

        // MARK: Scenarios: `{"hop": …}` is a handler's `Task`

        static func meter(_ handler: String, registry: String = "center") -> String {
            """
            [
              { "op": "create", "object": "meter" },
              { "op": "observe", "registry": "\(registry)", "observer": "meter", "channel": "MeterReading",
                "isolation": "EnergyMeter", "handler": \(handler), "site": "EnergyMeter.swift:20" },
              { "op": "post", "registry": "\(registry)", "channel": "MeterReading", "isolation": "main-actor",
                "site": "Dashboard.swift:8" }
            ]
            """
        }

        @Test(arguments: ["center", "subject"])
        func aScenarioHandlerThatOnlyHopsOntoItsActorIsClean(registry: String) throws {
            let report = try InlineScenario(
                Self.meter(
                    #"[ { "hop": "EnergyMeter", "handler": [ { "increment": "meter.total" } ] } ]"#,
                    registry: registry)
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test func aScenarioHandlerThatOnlyHopsToTheMainActorIsClean() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartChanged",
                    "isolation": "main-actor", "handler": [ { "hop": "main-actor", "handler": [
                      { "increment": "badge.count" }, { "post": { "registry": "center", "channel": "BadgeShown" } } ] } ] },
                  { "op": "post", "registry": "center", "channel": "CartChanged", "isolation": "background" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        @Test(arguments: ["center", "subject"])
        func aScenarioHandlerThatTouchesStateBeforeHoppingIsAnErrorAtItsRegistration(registry: String) throws {
            let report = try InlineScenario(
                Self.meter(
                    #"[ { "increment": "meter.total" }, { "hop": "EnergyMeter", "handler": [] } ]"#,
                    registry: registry)
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.site?.description == "EnergyMeter.swift:20")
            #expect(finding.step == 2)
            #expect(finding.message.contains("Dashboard.swift:8"), "\(finding.message)")
        }

        @Test func aScenarioHopThatRunsOffTheActorIsAnError() throws {
            let report = try InlineScenario(
                Self.meter(#"[ { "hop": "background", "handler": [ { "increment": "meter.total" } ] } ]"#)
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.site?.description == "EnergyMeter.swift:20")
            #expect(finding.message.contains("work the handler started changed \"meter.total\""), "\(finding.message)")
        }

        @Test func aScenarioHandlerOfWhichNothingIsSeenIsReportedAtThePost() throws {
            let report = try InlineScenario(Self.meter("[]")).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.site?.description == "Dashboard.swift:8")
        }

        @Test func aHopNamesWhereItRuns() {
            #expect(throws: InputError.self) {
                try InlineScenario(
                    """
                    [
                      { "op": "create", "object": "a" },
                      { "op": "observe", "registry": "center", "observer": "a", "channel": "X",
                        "handler": [ { "hop": 3, "handler": [] } ] }
                    ]
                    """
                ).report()
            }
            #expect(throws: InputError.self) {
                try InlineScenario(
                    """
                    [
                      { "op": "create", "object": "a" },
                      { "op": "observe", "registry": "center", "observer": "a", "channel": "X",
                        "handler": [ { "hop": "main-actor", "effects": [] } ] }
                    ]
                    """
                ).report()
            }
        }
    }
}
