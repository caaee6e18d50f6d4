import Testing

@testable import ObserverHarness

/// An `observable` registry replays `withObservationTracking` as Swift runs
/// it: each `observe` a one-shot registration of its own, every armed one
/// fired by a change, in an order the registry does not promise, and an
/// unfired onChange kept (with what it captures) by the model's registrar.
extension ReplayTests {
    @Suite struct ObservableRegistry {
        static let registries = #"{ "model": { "kind": "observable" } }"#
        static let inOrder = #"{ "model": { "kind": "observable", "order": "registration" } }"#

        static func tracking(
            _ observer: String, hold: String? = nil, site: String? = nil, handler: String = "[]"
        ) -> String {
            let hold = hold.map { #", "hold": "\#($0)""# } ?? ""
            let site = site.map { #", "site": "\#($0)""# } ?? ""
            return """
                { "op": "observe", "registry": "model", "observer": "\(observer)", "object": "cart", "property": "count",
                  "handler": \(handler)\(hold)\(site) }
                """
        }

        static let change = #"{ "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 1 }"#

        // MARK: An unfired tracking holds its observer

        @Test func releasingAnObserverWhoseOnChangeHasNotFiredLeaksIt() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  \(Self.tracking("badge", site: "Badge.swift:12")),
                  { "op": "release", "object": "badge" }
                ]
                """, registries: Self.registries)
            let finding = try #require(try scenario.report().onlyFinding(of: "registration-keeps-observer-alive"))
            #expect(finding.objects == ["badge"])
            #expect(finding.site?.description == "Badge.swift:12")
            #expect(finding.message.contains("has not fired"), "\(finding.message)")
            #expect(try scenario.baseline().count(of: .dealloc) == 0)
        }

        @Test func aWeakCaptureLetsTheObserverGo() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  \(Self.tracking("badge", hold: "weak", handler: #"[ { "increment": "badge.refreshes" } ]"#)),
                  { "op": "release", "object": "badge" },
                  \(Self.change)
                ]
                """, registries: Self.registries)
            #expect(try scenario.report().findings.isEmpty)
            #expect(try scenario.baseline().objects(of: .dealloc) == ["badge"])
            // The onChange still runs, and finds its observer gone.
            #expect(try scenario.baseline().count(of: .observationFire) == 1)
            #expect(try scenario.finalState()["badge.refreshes"] == nil)
        }

        @Test func aFiredTrackingNoLongerHoldsItsObserver() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  \(Self.tracking("badge")),
                  \(Self.change),
                  { "op": "release", "object": "badge" }
                ]
                """, registries: Self.registries)
            #expect(try scenario.report().findings.isEmpty)
            #expect(try scenario.baseline().objects(of: .dealloc) == ["badge"])
        }

        @Test func theModelGoingTakesItsTrackingsWithIt() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  \(Self.tracking("badge")),
                  { "op": "release", "object": "cart" },
                  { "op": "release", "object": "badge" }
                ]
                """, registries: Self.registries)
            #expect(try scenario.report().findings.isEmpty)
            #expect(try scenario.baseline().objects(of: .dealloc) == ["cart", "badge"])
        }

        @Test func anObserverOnlyTheModelKeptGoesWithTheModel() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  \(Self.tracking("badge")),
                  { "op": "release", "object": "badge" },
                  { "op": "release", "object": "cart" }
                ]
                """, registries: Self.registries)
            #expect(try scenario.report().findings.isEmpty)
            #expect(try scenario.baseline().objects(of: .dealloc) == ["cart", "badge"])
        }

        @Test func anUnownedHoldIsRejected() {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  \(Self.tracking("badge", hold: "unowned"))
                ]
                """, registries: Self.registries)
            #expect(throws: InputError.self) { try scenario.parse() }
            let registry = InlineScenario(
                #"[]"#, registries: #"{ "model": { "kind": "observable", "hold": "unowned" } }"#)
            #expect(throws: InputError.self) { try registry.parse() }
        }

        // MARK: Every observe is a tracking of its own

        @Test func oneObserverTrackingAPropertyTwiceGetsEachChangeTwice() throws {
            let increment = #"[ { "increment": "badge.refreshes" } ]"#
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  \(Self.tracking("badge", site: "Badge.swift:20", handler: increment)),
                  \(Self.tracking("badge", site: "Badge.swift:20", handler: increment)),
                  \(Self.change)
                ]
                """, registries: Self.registries)
            let finding = try #require(try scenario.report().onlyFinding(of: "duplicate-registration"))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["badge"], registry: "model", channel: "cart.count", step: 3,
                        site: "Badge.swift:20"))
            #expect(try scenario.finalState()["badge.refreshes"] == "2")
        }

        @Test func observingAgainFromOnChangeIsNotADuplicate() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge", "methods": { "refresh": [
                    { "observe": { "registry": "model", "observer": "self", "object": "cart", "property": "count",
                                   "method": "refresh" } },
                    { "increment": "badge.refreshes" } ] } },
                  { "op": "observe", "registry": "model", "observer": "badge", "object": "cart", "property": "count",
                    "method": "refresh" },
                  \(Self.change),
                  { "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 2 }
                ]
                """, registries: Self.registries)
            #expect(try scenario.report().findings.isEmpty)
            #expect(try scenario.finalState()["badge.refreshes"] == "2")
        }

        @Test func twoObserversTrackingOnePropertyAreNotDuplicates() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "create", "object": "total" },
                  \(Self.tracking("badge")),
                  \(Self.tracking("total")),
                  \(Self.change)
                ]
                """, registries: Self.registries)
            #expect(try scenario.report().findings.isEmpty)
            #expect(try scenario.baseline().count(of: .observationFire) == 2)
        }

        @Test func bothTrackingsOfOneObserverHaveTheirIsolationChecked() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "model", "observer": "badge", "object": "cart", "property": "count",
                    "handler": [], "isolation": "main-actor", "site": "Badge.swift:20" },
                  { "op": "observe", "registry": "model", "observer": "badge", "object": "cart", "property": "count",
                    "handler": [], "isolation": "main-actor", "site": "Badge.swift:31" },
                  { "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 1,
                    "isolation": "background" }
                ]
                """, registries: Self.registries
            ).report()
            let sites = report.findings(of: "delivery-off-isolation").compactMap { $0.site?.description }
            #expect(sites.sorted() == ["Badge.swift:20", "Badge.swift:31"])
            #expect(report.findings(of: "duplicate-registration").count == 1)
        }

        /// The near miss: an onChange that only hops back to its actor, which
        /// does the work there, is the rule's own fix.
        @Test func anOnChangeThatOnlyHopsBackToItsActorIsNotOffIsolation() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "observe", "registry": "model", "observer": "badge", "object": "cart", "property": "count",
                    "handler": [ { "hop": "main-actor", "handler": [ { "increment": "badge.count" } ] } ],
                    "isolation": "main-actor", "site": "Badge.swift:20" },
                  { "op": "set", "registry": "model", "object": "cart", "property": "count", "value": 1,
                    "isolation": "background" }
                ]
                """, registries: Self.registries
            ).report()
            #expect(report.findings(of: "delivery-off-isolation").isEmpty)
        }

        // MARK: The order of onChanges is explored

        static let counterAndLabel = """
            [
              { "op": "create", "object": "cart" },
              { "op": "create", "object": "counter" },
              { "op": "create", "object": "label" },
              \(tracking("counter", handler: #"[ { "increment": "cart.changes" } ]"#)),
              \(tracking("label", handler: #"[ { "read": "cart.changes" } ]"#)),
              \(change)
            ]
            """

        @Test func onChangesThatDependOnEachOtherAreAnOrderingDependence() throws {
            let report = try InlineScenario(Self.counterAndLabel, registries: Self.registries).report()
            let finding = try #require(report.onlyFinding(of: "ordering-dependence"))
            #expect(finding.objects == ["counter", "label"])
            #expect(finding.channel == "cart.count")
            #expect(finding.step == 5)
            #expect(finding.message.contains("label's read of \"cart.changes\""), "\(finding.message)")
        }

        @Test func aRegistryThatPromisesRegistrationOrderIsNotExplored() throws {
            let report = try InlineScenario(Self.counterAndLabel, registries: Self.inOrder).report()
            #expect(report.findings.isEmpty)
            #expect(report.replays == 1)
        }

        @Test func independentOnChangesAreNotAnOrderingDependence() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "create", "object": "total" },
                  \(Self.tracking("badge", handler: #"[ { "set": "badge.text", "value": "1" } ]"#)),
                  \(Self.tracking("total", handler: #"[ { "read": "cart.price" } ]"#)),
                  \(Self.change)
                ]
                """, registries: Self.registries
            ).report()
            #expect(report.findings.isEmpty)
        }

        @Test func independentOnChangesAreReorderedOnceNotExhaustively() throws {
            let names = (1...8).map { "view\($0)" }
            let creates = names.map { #"{ "op": "create", "object": "\#($0)" }"# }
            let trackings = names.map { Self.tracking($0, handler: #"[ { "set": "\#($0).text", "value": "1" } ]"#) }
            let report = try InlineScenario(
                "[" + (#"{ "op": "create", "object": "cart" }"# + ",\n")
                    + (creates + trackings + [Self.change])
                    .joined(separator: ",\n") + "]",
                registries: Self.registries
            ).report()
            #expect(report.findings.isEmpty)
            #expect(report.replays <= 2)
        }

        // MARK: Open points the format article decides

        /// An onChange that runs after another onChange set the property being
        /// set sees that write; the set in progress then overwrites it.
        @Test func anOnChangeSeesAnotherOnChangesWriteOfThePropertyBeingSet() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "tidier" },
                  { "op": "create", "object": "label" },
                  \(Self.tracking("tidier", handler: #"[ { "set": { "registry": "model", "object": "cart", "property": "count", "value": 100 } } ]"#)),
                  \(Self.tracking("label", handler: #"[ { "read": "cart.count" } ]"#)),
                  \(Self.change)
                ]
                """, registries: Self.inOrder)
            #expect(try scenario.baseline().readValues == ["100"])
            #expect(try scenario.finalState()["cart.count"] == "1")
            let report = try scenario.report()
            #expect(report.findings(of: "mutation-during-notify").map(\.objects) == [["tidier"]])
        }

        /// Two onChanges incrementing one key on one change are not
        /// `broadcast-as-command`: a change is not a post.
        @Test func aSetOnAnObservableIsNotAPostForBroadcastAsCommand() throws {
            let increments = #"[ { "increment": "cart.saves" } ]"#
            let observable = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "create", "object": "total" },
                  \(Self.tracking("badge", handler: increments)),
                  \(Self.tracking("total", handler: increments)),
                  \(Self.change)
                ]
                """, registries: Self.registries
            ).report()
            observable.expectNone(of: "broadcast-as-command")
            // The same wiring on a property registry is one.
            let property = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  { "op": "create", "object": "total" },
                  { "op": "observe", "registry": "kvo", "observer": "badge", "object": "cart", "property": "count",
                    "handler": \(increments) },
                  { "op": "observe", "registry": "kvo", "observer": "total", "object": "cart", "property": "count",
                    "handler": \(increments) },
                  { "op": "set", "registry": "kvo", "object": "cart", "property": "count", "value": 1 }
                ]
                """
            ).report()
            #expect(property.findings(of: "broadcast-as-command").count == 1)
        }

        /// Two explored orders' lifetimes differ when a finding of a lifetime
        /// rule names its objects in one order and not in the other.
        @Test func aLifetimeFindingInOneOrderOnlyMakesTheOrdersDifferent() throws {
            let steps = { (hold: String) in
                """
                [
                  { "op": "create", "object": "screen" },
                  { "op": "create", "object": "closer" },
                  { "op": "observe", "registry": "center", "observer": "screen", "channel": "Logout", "handler": [],
                    "hold": "\(hold)" },
                  { "op": "observe", "registry": "center", "observer": "closer", "channel": "Logout",
                    "handler": [ { "release": "screen" } ] },
                  { "op": "post", "registry": "center", "channel": "Logout" }
                ]
                """
            }
            let unowned = try InlineScenario(steps("unowned")).report()
            let finding = try #require(unowned.onlyFinding(of: "ordering-dependence"))
            #expect(
                finding.message.contains("notify-after-dealloc for screen is absent vs reported"), "\(finding.message)")
            // Weakly held, the dead screen is skipped in either order: the same lifetimes.
            let weak = try InlineScenario(steps("weak")).report()
            weak.expectNone(of: "ordering-dependence")
        }

        /// A key set to `null` and a key never set are the same outcome.
        @Test func aKeySetToNullIsTheSameAsAKeyNeverSet() throws {
            let steps = { (value: String) in
                """
                [
                  { "op": "create", "object": "resetter" },
                  { "op": "create", "object": "label" },
                  { "op": "observe", "registry": "center", "observer": "resetter", "channel": "Reset",
                    "handler": [ { "set": "draft.text", "value": \(value) } ] },
                  { "op": "observe", "registry": "center", "observer": "label", "channel": "Reset",
                    "handler": [ { "read": "draft.text" } ] },
                  { "op": "post", "registry": "center", "channel": "Reset" }
                ]
                """
            }
            try InlineScenario(steps("null")).report().expectNone(of: "ordering-dependence")
            let empty = try InlineScenario(steps(#""""#)).report()
            #expect(empty.findings(of: "ordering-dependence").count == 1)
        }

        // MARK: Typed tokens

        static func typedObserve(token: String?) -> String {
            let token = token.map { #", "token": "\#($0)""# } ?? ""
            return """
                { "op": "observe", "registry": "center", "observer": "badge", "channel": "CartDidChange", "typed": true,
                  "sender": "cart", "handler": [ { "increment": "badge.refreshes" } ]\(token) }
                """
        }

        @Test func aTokenLessTypedObserveIsDiscardedTokenAndNothingElse() throws {
            let scenario = InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  \(Self.typedObserve(token: "badgeToken")),
                  \(Self.typedObserve(token: nil)),
                  { "op": "post", "registry": "center", "channel": "CartDidChange", "sender": "cart", "typed": true }
                ]
                """)
            let report = try scenario.report()
            #expect(report.firedRules == ["discarded-token"])
            #expect(report.findings(of: "discarded-token").map(\.step) == [3])
            // It never fires: the post reaches the kept observer once.
            #expect(try scenario.finalState()["badge.refreshes"] == "1")
        }

        @Test func twoKeptTypedObserversAreStillADuplicate() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  \(Self.typedObserve(token: "first")),
                  \(Self.typedObserve(token: "second"))
                ]
                """
            ).report()
            #expect(report.firedRules == ["duplicate-registration"])
        }

        /// A `drop-token` is "at once" when nothing but `create` steps (and
        /// deallocations) came between the `observe` and the drop.
        @Test func aDropCountsAsAtOnceWhenOnlyCreatesComeBetween() throws {
            let steps = { (between: String) in
                """
                [
                  { "op": "create", "object": "cart" },
                  { "op": "create", "object": "badge" },
                  \(Self.typedObserve(token: "badgeToken")),
                  \(between),
                  { "op": "drop-token", "token": "badgeToken" }
                ]
                """
            }
            let created = try InlineScenario(steps(#"{ "op": "create", "object": "spinner" }"#)).report()
            #expect(created.findings(of: "discarded-token").map(\.step) == [4])
            let worked = try InlineScenario(
                steps(#"{ "op": "post", "registry": "center", "channel": "ScreenDidLoad" }"#)
            ).report()
            worked.expectNone(of: "discarded-token")
            let posted = try InlineScenario(
                steps(
                    #"{ "op": "post", "registry": "center", "channel": "CartDidChange", "sender": "cart", "typed": true }"#
                )
            ).report()
            posted.expectNone(of: "discarded-token")
        }
    }
}
