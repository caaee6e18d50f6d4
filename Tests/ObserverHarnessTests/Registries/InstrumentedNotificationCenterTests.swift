import Foundation
import Testing

@testable import ObserverHarness

/// Each test does the same operations on Foundation's `NotificationCenter`
/// and on ours, and compares what the handlers observed.
@Suite struct InstrumentedNotificationCenterTests {
    typealias Sender = RegistryFixtures.Sender
    private let tap = Notification.Name("Tap")
    private let scroll = Notification.Name("Scroll")

    @Test func objectFilterMatchesTheSenderByIdentityNotEquality() {
        let (tap, sender) = (self.tap, Sender.self)
        let result = RegistryFixtures.sideBySide { shared, log in
            let a = Sender("a"), equalButNotA = Sender("b")
            let token = shared.base.addObserver(forName: tap, object: a, queue: nil) { notification in
                log.append("filtered got \(sender.name(of: notification.object))")
            }
            shared.base.post(name: tap, object: a)
            shared.base.post(name: tap, object: equalButNotA)
            shared.base.post(name: tap, object: nil)
            shared.base.removeObserver(token)
        }
        #expect(result.foundation == ["filtered got a"])
        #expect(result.ours == result.foundation)
    }

    @Test func registrationWithoutObjectReceivesEverySender() {
        let (tap, sender) = (self.tap, Sender.self)
        let result = RegistryFixtures.sideBySide { shared, log in
            let token = shared.base.addObserver(forName: tap, object: nil, queue: nil) { notification in
                log.append("got \(sender.name(of: notification.object))")
            }
            shared.base.post(name: tap, object: Sender("a"))
            shared.base.post(name: tap, object: nil)
            shared.base.removeObserver(token)
        }
        #expect(result.foundation == ["got a", "got nil"])
        #expect(result.ours == result.foundation)
    }

    @Test func nilNameObservesEveryName() {
        let (tap, scroll) = (self.tap, self.scroll)
        let result = RegistryFixtures.sideBySide { shared, log in
            let token = shared.base.addObserver(forName: nil, object: nil, queue: nil) { notification in
                log.append(notification.name.rawValue)
            }
            shared.base.post(name: tap, object: nil)
            shared.base.post(Notification(name: scroll))
            shared.base.removeObserver(token)
        }
        #expect(result.foundation == ["Tap", "Scroll"])
        #expect(result.ours == result.foundation)
        #expect(result.recording.recordedEvents(.add).first?.event.flags.contains(.anyChannel) == true)
    }

    @Test func deliveryIsSynchronousOnThePostingThread() {
        let tap = self.tap
        let result = RegistryFixtures.sideBySide { shared, log in
            let poster = ThreadContext.current.threadNumber
            let token = shared.base.addObserver(forName: tap, object: nil, queue: nil) { notification in
                log.append("on posting thread: \(ThreadContext.current.threadNumber == poster)")
                log.append("userInfo: \(notification.userInfo?["n"] as? Int ?? -1)")
            }
            shared.base.post(name: tap, object: nil, userInfo: ["n": 7])
            log.append("post returned")
            shared.base.removeObserver(token)
        }
        #expect(result.foundation == ["on posting thread: true", "userInfo: 7", "post returned"])
        #expect(result.ours == result.foundation)
    }

    @Test func deliveryFollowsRegistrationOrderInOursAndIsStableInFoundation() {
        let tap = self.tap
        let result = RegistryFixtures.sideBySide { shared, log in
            let tokens = (0..<6).map { index in
                shared.base.addObserver(forName: tap, object: nil, queue: nil) { _ in log.append("\(index)") }
            }
            shared.base.post(name: tap, object: nil)
            shared.base.post(name: tap, object: nil)
            for token in tokens { shared.base.removeObserver(token) }
        }
        // First registered, first notified.
        #expect(result.ours == ["0", "1", "2", "3", "4", "5", "0", "1", "2", "3", "4", "5"])
        // Foundation on Linux promises no order (it follows its table's hash
        // order), but it delivers to each observer once and the same way twice.
        #expect(result.foundation.count == 12)
        #expect(Set(result.foundation.prefix(6)) == Set((0..<6).map(String.init)))
        #expect(Array(result.foundation.prefix(6)) == Array(result.foundation.suffix(6)))
    }

    @Test func blockGivenAQueueRunsOnThatQueueAndPostWaitsForIt() {
        let tap = self.tap
        let result = RegistryFixtures.sideBySide { shared, log in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let token = shared.base.addObserver(forName: tap, object: nil, queue: queue) { _ in
                Thread.sleep(forTimeInterval: 0.02)
                log.append("ran on the queue: \(OperationQueue.current === queue)")
            }
            shared.base.post(name: tap, object: nil)
            log.append("post returned")
            shared.base.removeObserver(token)
        }
        #expect(result.foundation == ["ran on the queue: true", "post returned"])
        #expect(result.ours == result.foundation)
        // The delivery is recorded on the posting thread, before the block runs.
        let post = result.recording.recordedEvents(.post)[0]
        let delivery = result.recording.recordedEvents(.deliver)[0]
        #expect(delivery.event.cause == UInt32(post.sequence))
        #expect(delivery.event.thread == post.event.thread)
    }

    @Test func blockRegistrationEndsOnlyByItsToken() {
        let tap = self.tap
        let result = RegistryFixtures.sideBySide { shared, log in
            let token = shared.base.addObserver(forName: tap, object: nil, queue: nil) { _ in log.append("got") }
            let someOtherObject = RegistryFixtures.Screen()
            shared.base.removeObserver(someOtherObject)
            shared.base.post(name: tap, object: nil)
            shared.base.removeObserver(token)
            shared.base.post(name: tap, object: nil)
            log.append("done")
        }
        #expect(result.foundation == ["got", "done"])
        #expect(result.ours == result.foundation)
        let removals = result.recording.recordedEvents(.remove).map(\.event)
        #expect(removals.map(\.registration) == [0, 1], "the first removal matched nothing, the token's ended it")
        #expect(removals.last?.flags.contains(.byToken) == true)
    }

    @Test func removeObserverWithANameOrObjectEndsATokenOnlyWhenTheyMatch() {
        let (tap, scroll) = (self.tap, self.scroll)
        let result = RegistryFixtures.sideBySide { shared, log in
            let a = Sender("a")
            let token = shared.base.addObserver(forName: tap, object: a, queue: nil) { _ in log.append("got") }
            shared.base.removeObserver(token, name: scroll, object: nil)
            shared.base.removeObserver(token, name: nil, object: Sender("other"))
            shared.base.post(name: tap, object: a)
            log.append("-")
            shared.base.removeObserver(token, name: tap, object: a)
            shared.base.post(name: tap, object: a)
            let anyName = shared.base.addObserver(forName: nil, object: nil, queue: nil) { _ in log.append("any") }
            shared.base.removeObserver(anyName, name: tap, object: nil)
            shared.base.post(name: tap, object: nil)
            shared.base.removeObserver(anyName)
        }
        #expect(result.foundation == ["got", "-", "any"])
        #expect(result.ours == result.foundation)
    }

    @Test func observerFormIsRemovedByObserverAndNameOnly() {
        let harness = Harness()
        let center = harness.notificationCenter()
        let log = RegistryFixtures.Log()
        let screen = RegistryFixtures.Screen()
        center.addObserver(screen, name: tap, object: nil) { _, notification in log.append(notification.name.rawValue) }
        center.addObserver(screen, name: scroll, object: nil) { _, notification in
            log.append(notification.name.rawValue)
        }
        center.removeObserver(screen, name: tap, object: nil)
        center.post(name: tap, object: nil)
        center.post(name: scroll, object: nil)
        #expect(log.entries == ["Scroll"])
        center.removeObserver(screen)
        center.post(name: scroll, object: nil)
        #expect(log.entries == ["Scroll"])
        #expect(center.registrationCount == 0)
    }

    @Test func observerFormHoldsItsObserverWeakly() {
        let harness = Harness()
        let center = harness.notificationCenter()
        weak var weakScreen: RegistryFixtures.Screen?
        do {
            let screen = RegistryFixtures.Screen()
            weakScreen = screen
            center.addObserver(screen, name: tap, object: nil) { _, _ in Issue.record("delivered to a dead observer") }
        }
        #expect(weakScreen == nil)
        center.post(name: tap, object: nil)
        let recording = harness.recording()
        #expect(recording.recordedKinds.suffix(3) == [.post, .dealloc, .deliverSkipped])
        #expect(recording.recordedEvents(.dealloc)[0].event.flags.contains(.detectedLate))
    }

    @Test func registrationAddedDuringADeliveryMissesThatPost() {
        let tap = self.tap
        let result = RegistryFixtures.sideBySide { shared, log in
            shared[token: 0] = shared.base.addObserver(forName: tap, object: nil, queue: nil) { _ in
                log.append("first")
                if shared[token: 1] == nil {
                    shared[token: 1] = shared.base.addObserver(forName: tap, object: nil, queue: nil) { _ in
                        log.append("late")
                    }
                }
            }
            shared.base.post(name: tap, object: nil)
            log.append("-")
            shared.base.post(name: tap, object: nil)
            for index in 0...1 { shared[token: index].map { shared.base.removeObserver($0) } }
        }
        #expect(result.foundation.prefix(2) == ["first", "-"])
        #expect(Set(result.foundation.dropFirst(2)) == ["first", "late"])
        #expect(result.ours == ["first", "-", "first", "late"])
    }

    @Test func registrationRemovedDuringADeliveryIsCalledAsFoundationCallsIt() {
        // Two observers that each remove the other: whichever runs first ends the other.
        let tap = self.tap
        let result = RegistryFixtures.sideBySide { shared, log in
            for index in 0...1 {
                shared[token: index] = shared.base.addObserver(forName: tap, object: nil, queue: nil) { _ in
                    log.append("\(index)")
                    shared[token: 1 - index].map { shared.base.removeObserver($0) }
                }
            }
            shared.base.post(name: tap, object: nil)
            log.append("-")
            shared.base.post(name: tap, object: nil)
        }
        if FoundationBehavior.centerDeliversToRemovedDuringPost {
            // swift-corelibs-foundation delivers the in-flight post to every
            // observer it had when the post began, removed or not: both ran,
            // removed each other, and the second post reached no one. The
            // drop-in calls the same observers (in registration order).
            #expect(result.foundation.count == 3)
            #expect(Set(result.foundation.prefix(2)) == ["0", "1"])
            #expect(result.foundation[2] == "-")
            #expect(result.ours == ["0", "1", "-"])
        } else {
            // One removed during a delivery receives nothing more, as Darwin's
            // center skips it: the first observer ended the second.
            #expect(result.ours == ["0", "-", "0"])
            #if canImport(Darwin)
                #expect(result.foundation == ["0", "-", "0"])
            #endif
        }
    }

    @Test func handlersRepostingAreDeliveredDepthFirst() {
        let (tap, scroll) = (self.tap, self.scroll)
        let result = RegistryFixtures.sideBySide { shared, log in
            let outer = shared.base.addObserver(forName: tap, object: nil, queue: nil) { _ in
                log.append("tap begins")
                shared.base.post(name: scroll, object: nil)
                log.append("tap ends")
            }
            let inner = shared.base.addObserver(forName: scroll, object: nil, queue: nil) { _ in log.append("scroll") }
            shared.base.post(name: tap, object: nil)
            shared.base.removeObserver(outer)
            shared.base.removeObserver(inner)
        }
        #expect(result.foundation == ["tap begins", "scroll", "tap ends"])
        #expect(result.ours == result.foundation)
        // The inner post names the outer delivery as its cause.
        let recording = result.recording
        let outerDelivery = recording.recordedEvents(.deliver)[0]
        let innerPost = recording.recordedEvents(.post)[1]
        #expect(innerPost.event.cause == UInt32(outerDelivery.sequence))
    }

    @Test func everyCallIsRecordedWithTheRegistryAndSite() {
        let harness = Harness()
        let center = harness.notificationCenter("app-center")
        let line = #line + 1
        let token = center.addObserver(forName: tap, object: nil, queue: nil) { _ in }
        center.post(name: tap, object: nil)
        center.removeObserver(token)
        let recording = harness.recording()
        #expect(recording.recordedKinds == [.track, .add, .post, .deliver, .remove])
        let add = recording.recordedEvents(.add)[0].event
        #expect(recording.registry(add.registry).name == "app-center")
        #expect(recording.registry(add.registry).kind == .notificationCenter)
        let site = recording.site(add.site)
        #expect(site?.file == "ObserverHarnessTests/InstrumentedNotificationCenterTests.swift")
        #expect(site?.line == line)
        #expect(site.map { $0.column > 0 } == true, "the column is recorded too: \(String(describing: site?.column))")
        #expect(add.flags.contains(.tokenForm))
        #expect(recording.string(add.channel) == "Tap")
    }
}
