import Testing

@testable import ObserverHarness

extension Rules {
    @Suite struct ObservedObjectDeallocated {
        static let rule = "observed-object-deallocated"

        @Test func observedObjectDeallocatedFiresWhenKVOTargetIsReleasedWhileObserved() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "player" },
                  { "op": "create", "object": "progressView" },
                  { "op": "observe", "registry": "kvo", "observer": "progressView", "object": "player",
                    "property": "currentTime", "handler": [], "site": "ProgressView.swift:31" },
                  { "op": "release", "object": "player", "site": "Screen.swift:70" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.severity == .error)
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["player", "progressView"], registry: "kvo",
                        channel: "currentTime", step: 3, site: "ProgressView.swift:31"))
        }

        /// An object observing itself is an observer registered on it.
        @Test func observedObjectDeallocatedFiresWhenAnObjectObservingItselfIsFreedStillRegistered() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "editor" },
                  { "op": "observe", "registry": "center", "observer": "editor", "channel": "DidSave",
                    "sender": "editor", "handler": [], "site": "Editor.swift:15" },
                  { "op": "release", "object": "editor" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["editor"], registry: "center",
                        channel: "DidSave", step: 2, site: "Editor.swift:15"))
            #expect(finding.message.contains("still observed \"DidSave\" from itself"))
        }

        @Test func observedObjectDeallocatedIgnoresAnObjectObservingItselfThatRemovesItsObservationFirst() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "editor" },
                  { "op": "observe", "registry": "center", "observer": "editor", "channel": "DidSave",
                    "sender": "editor", "handler": [] },
                  { "op": "remove", "registry": "center", "observer": "editor" },
                  { "op": "release", "object": "editor" }
                ]
                """
            ).report()
            #expect(report.findings(of: Self.rule).isEmpty)
        }

        @Test func observedObjectDeallocatedFiresWhenTheSenderFilterOfALiveObserverDeallocates() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "document" },
                  { "op": "create", "object": "editor" },
                  { "op": "observe", "registry": "center", "observer": "editor", "channel": "DidSave",
                    "sender": "document", "handler": [], "site": "Editor.swift:15" },
                  { "op": "release", "object": "document" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(
                finding.shape
                    == FindingShape(
                        objects: ["document", "editor"], registry: "center",
                        channel: "DidSave", step: 3, site: "Editor.swift:15"))
        }

        @Test func observedObjectDeallocatedIgnoresOwnerWhoseDeinitRemovesTheObservationBeforeReleasingTheTarget()
            throws
        {
            // The owner's deinit runs before its own references (the retained
            // player) are dropped, so the observation ends first.
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "player" },
                  { "op": "create", "object": "screen", "methods": { "deinit": [
                      { "remove": { "registry": "kvo", "observer": "self", "object": "player",
                                    "property": "currentTime" } } ] } },
                  { "op": "retain", "holder": "screen", "target": "player" },
                  { "op": "observe", "registry": "kvo", "observer": "screen", "object": "player",
                    "property": "currentTime", "handler": [] },
                  { "op": "release", "object": "player" },
                  { "op": "release", "object": "screen" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func observedObjectDeallocatedIgnoresObservationRemovedBeforeTheTargetIsReleased() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "player" },
                  { "op": "create", "object": "progressView" },
                  { "op": "observe", "registry": "kvo", "observer": "progressView", "object": "player",
                    "property": "currentTime", "handler": [] },
                  { "op": "remove", "registry": "kvo", "observer": "progressView", "object": "player",
                    "property": "currentTime" },
                  { "op": "release", "object": "player" }
                ]
                """
            ).report()
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        }

        @Test func observedObjectDeallocatedIgnoresAWeakObserverThatIsAlreadyGone() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "document" },
                  { "op": "create", "object": "editor" },
                  { "op": "observe", "registry": "center", "observer": "editor", "channel": "DidSave",
                    "sender": "document", "handler": [] },
                  { "op": "release", "object": "editor" },
                  { "op": "release", "object": "document" }
                ]
                """
            ).report()
            report.expectNone(of: Self.rule)
        }

        /// A sender released and, in the same step, its observer removed by the
        /// handler of the post that announced it: nothing could reach the
        /// registration while the sender was dead.
        static let finishedInOneStep = """
            [
              { "op": "create", "object": "task" },
              { "op": "create", "object": "row" },
              { "op": "create", "object": "manager", "methods": { "finish": [
                { "release": "task" },
                { "post": { "registry": "center", "channel": "DownloadFinished" } }
              ] } },
              { "op": "observe", "registry": "center", "observer": "row", "channel": "Progress",
                "sender": "task", "handler": [], "site": "DownloadRow.swift:20" },
              { "op": "observe", "registry": "center", "observer": "row", "channel": "DownloadFinished",
                "handler": [ { "remove": { "registry": "center", "observer": "row", "channel": "Progress" } } ] },
              { "op": "invoke", "object": "manager", "method": "finish" }
            ]
            """

        @Test func observedObjectDeallocatedIgnoresARemovalInTheStepWhereTheSenderDied() throws {
            let report = try InlineScenario(Self.finishedInOneStep).report()
            report.expectNone(of: Self.rule)
        }

        /// The bug beside it: the removal comes a step later, after another post.
        @Test func observedObjectDeallocatedFiresWhenTheRemovalComesInALaterStep() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "task" },
                  { "op": "create", "object": "row" },
                  { "op": "observe", "registry": "center", "observer": "row", "channel": "Progress",
                    "sender": "task", "handler": [], "site": "DownloadRow.swift:20" },
                  { "op": "release", "object": "task" },
                  { "op": "post", "registry": "center", "channel": "DownloadFinished" },
                  { "op": "remove", "registry": "center", "observer": "row", "channel": "Progress" }
                ]
                """
            ).report()
            let finding = try #require(report.onlyFinding(of: Self.rule))
            #expect(finding.step == 3)
            #expect(finding.site?.description == "DownloadRow.swift:20")
        }

        /// KVO raises at the deallocation itself: no grace for a removal after it.
        @Test func observedObjectDeallocatedFiresForAKVOTargetRemovedInTheSameStep() throws {
            let report = try InlineScenario(
                """
                [
                  { "op": "create", "object": "player" },
                  { "op": "create", "object": "progressView" },
                  { "op": "create", "object": "screen", "methods": { "close": [
                    { "release": "player" },
                    { "remove": { "registry": "kvo", "observer": "progressView", "object": "player",
                      "property": "currentTime" } }
                  ] } },
                  { "op": "observe", "registry": "kvo", "observer": "progressView", "object": "player",
                    "property": "currentTime", "handler": [] },
                  { "op": "invoke", "object": "screen", "method": "close" }
                ]
                """
            ).report()
            #expect(report.findings(of: Self.rule).count == 1)
        }

        /// A property observation whose object is freed while its token is
        /// kept: reported whether the test analyses before or after letting
        /// the token go, and never as a token dropped at once.
        @Test(arguments: [false, true])
        func liveAnObservationOfAFreedObjectIsReportedWhenTheTokenGoesLater(dropTokenFirst: Bool) throws {
            final class Download {}
            let harness = Harness()
            var token: PropertyObservation?
            do {
                let download = Download()
                let progress = harness.observedProperty("progress", of: download, initialValue: 0)
                token = progress.observe { _ in }
            }
            if dropTokenFirst { token = nil }
            let report = harness.analyze()
            #expect(report.findings(of: Self.rule).count == 1, "\(report.findings.map(\.message))")
            #expect(report.findings(of: "discarded-token").isEmpty, "\(report.findings.map(\.message))")
            withExtendedLifetime(token) {}
        }
    }
}
