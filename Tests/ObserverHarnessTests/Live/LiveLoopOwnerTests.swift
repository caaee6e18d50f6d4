import Foundation
import Testing

@testable import ObserverHarness

extension Notification.Name {
    static let liveAppearanceChanged = Notification.Name("AppearanceChanged")
}

/// A screen that follows the appearance with a `for await` loop in a Task it
/// keeps, written as Foundation's API has it: no `owner:`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@MainActor final class LiveAppearanceScreen {
    enum Wiring { case strongSelf, cancelledInDeinit, weakSelfBreaks, strongSelfWithOwner }

    static let loopLine: UInt = #line + 11
    var task: Task<Void, Never>?
    var reloads = 0
    private let cancelsInDeinit: Bool

    init(center: any NotificationCenterProtocol, wiring: Wiring) {
        cancelsInDeinit = wiring == .cancelledInDeinit
        switch wiring {
        case .strongSelf:
            // Captures self strongly: only cancelling the task ends the loop.
            task = Task {
                for await _ in center.postedNotifications(named: .liveAppearanceChanged) { self.reloads += 1 }
            }
        case .cancelledInDeinit:
            task = Task { [weak self] in
                for await _ in center.postedNotifications(named: .liveAppearanceChanged) { self?.reloads += 1 }
            }
        case .weakSelfBreaks:
            task = Task { [weak self] in
                for await _ in center.postedNotifications(named: .liveAppearanceChanged) {
                    guard let self else { break }
                    self.reloads += 1
                }
            }
        case .strongSelfWithOwner:
            task = Task {
                for await _ in center.postedNotifications(named: .liveAppearanceChanged, owner: self) {
                    self.reloads += 1
                }
            }
        }
    }

    deinit {
        if cancelsInDeinit { task?.cancel() }
    }
}

/// An app-wide service that listens for its whole life: it is never released.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
@MainActor final class LiveAppearanceService {
    var task: Task<Void, Never>?
    var changes = 0

    init(center: any NotificationCenterProtocol) {
        task = Task {
            for await _ in center.postedNotifications(named: .liveAppearanceChanged) { self.changes += 1 }
        }
    }
}

extension Live {
    /// `async-observer-outlives-owner` with no `owner:`: the owner is the
    /// tracked object that keeps the loop's task. Each test is written as a
    /// team writes it: create, release, post, wait, check.
    @Suite struct LoopOwners {
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @MainActor @Test func aLoopWithNoOwnerArgumentThatCapturesSelfIsReportedAtItsLine() async throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: LiveAppearanceScreen? = LiveAppearanceScreen(center: center, wiring: .strongSelf)
            harness.track(screen!, label: "screen")
            let task = screen?.task
            harness.noteReleased(screen!)
            screen = nil  // its loop has not started yet: the main actor has not been free
            center.post(name: .liveAppearanceChanged, object: nil)

            #expect(await harness.settle(maxTurns: 200) == false, "the loop never ends")
            let finding = try #require(harness.analyze().live("async-observer-outlives-owner").first)
            #expect(finding.objects.first == "screen")
            #expect(
                finding.message.contains(
                    "keeps its owner screen (LiveAppearanceScreen) alive after the app released it"))
            #expect(finding.message.contains("nothing cancelled its task, which screen keeps in a stored property"))
            #expect(finding.site?.file.hasSuffix("LiveLoopOwnerTests.swift") == true)
            #expect(finding.site?.line == Int(LiveAppearanceScreen.loopLine))
            task?.cancel()
            await task?.value
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @MainActor @Test func theTestEndWaitFindsALoopWhoseTaskHadNotRunWhenItsOwnerWasReleased() async throws {
            let harness = Harness()
            var screen: LiveAppearanceScreen? = LiveAppearanceScreen(
                center: harness.notificationCenter(), wiring: .strongSelf)
            harness.track(screen!, label: "screen")
            let task = screen?.task
            harness.noteReleased(screen!)
            screen = nil

            #expect(await harness.awaitHeldTasksStarted())
            #expect(harness.analyze().live("async-observer-outlives-owner").count == 1)
            task?.cancel()
            await task?.value
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @MainActor @Test func anOwnerArgumentWithOneYieldBeforeTheReleaseIsReported() async throws {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: LiveAppearanceScreen? = LiveAppearanceScreen(center: center, wiring: .strongSelfWithOwner)
            harness.track(screen!, label: "screen")
            await Task.yield()
            let task = screen?.task
            harness.noteReleased(screen!)
            screen = nil
            center.post(name: .liveAppearanceChanged, object: nil)

            #expect(await harness.settle(maxTurns: 200) == false)
            let finding = try #require(harness.analyze().live("async-observer-outlives-owner").first)
            #expect(finding.message.contains("keeps its owner screen (LiveAppearanceScreen) alive"))
            #expect(!finding.message.contains("keeps in a stored property"), "owner: was given")
            task?.cancel()
            await task?.value
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @MainActor @Test func aLoopCancelledInItsOwnersDeinitIsClean() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: LiveAppearanceScreen? = LiveAppearanceScreen(center: center, wiring: .cancelledInDeinit)
            harness.track(screen!, label: "screen")
            let task = screen?.task
            harness.noteReleased(screen!)
            screen = nil
            center.post(name: .liveAppearanceChanged, object: nil)
            await task?.value

            #expect(await harness.settle())
            #expect(harness.analyze().live("async-observer-outlives-owner").isEmpty)
            #expect(harness.outlivingObjects().isEmpty)
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @MainActor @Test func aWeakSelfLoopThatBreaksOnceItsOwnerIsGoneIsClean() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            var screen: LiveAppearanceScreen? = LiveAppearanceScreen(center: center, wiring: .weakSelfBreaks)
            harness.track(screen!, label: "screen")
            #expect(await harness.settle(), "waits for the screen's task to open its loop")
            let task = screen?.task
            harness.noteReleased(screen!)
            screen = nil
            center.post(name: .liveAppearanceChanged, object: nil)

            #expect(await harness.settle())
            await task?.value
            #expect(harness.analyze().live("async-observer-outlives-owner").isEmpty)
        }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @MainActor @Test func aLongLivedServicesLoopOutlivesNoOwner() async {
            let harness = Harness()
            let center = harness.notificationCenter()
            let service = LiveAppearanceService(center: center)
            harness.track(service, label: "service")
            var screen: LiveAppearanceScreen? = LiveAppearanceScreen(center: center, wiring: .cancelledInDeinit)
            harness.track(screen!, label: "screen")
            harness.noteReleased(screen!)
            screen = nil
            center.post(name: .liveAppearanceChanged, object: nil)

            #expect(await harness.settle())
            #expect(harness.analyze().live("async-observer-outlives-owner").isEmpty)
            service.task?.cancel()
            await service.task?.value
        }

        /// `owner:` only names the loop's owner: a sequence made with it and
        /// not iterated yet (kept in a property, or a loop whose task has not
        /// run) must not keep the owner alive, as it would not in production.
        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @Test func aSequenceMadeWithAnOwnerDoesNotKeepItAlive() {
            final class Owner {}
            let harness = Harness()
            let center = harness.notificationCenter()
            let cart = LiveCart()
            var owner: Owner? = Owner()
            weak let weakOwner = owner
            let notifications = center.postedNotifications(named: .liveAppearanceChanged, owner: owner)
            let messages = center.messages(of: cart, for: LiveCartSynced.self, owner: owner)
            owner = nil
            #expect(weakOwner == nil)
            withExtendedLifetime((notifications, messages)) {}
        }

        /// The bug beside it: a sequence made while its owner lived, iterated
        /// only after the owner was released, is a loop that outlives it.
        @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
        @Test func aLoopThatOpensAfterItsOwnerWentIsReported() async {
            final class Owner {}
            let harness = Harness()
            let center = harness.notificationCenter()
            let cart = LiveCart()
            var owner: Owner? = Owner()
            let messages = center.messages(of: cart, for: LiveCartSynced.self, owner: owner)
            owner = nil
            let task = Task { for await _ in messages {} }
            #expect(!(await harness.settle(loopsOpened: 1, maxTurns: 200)))
            #expect(harness.analyze().live("async-observer-outlives-owner").count == 1)
            task.cancel()
            await task.value
        }
    }
}
