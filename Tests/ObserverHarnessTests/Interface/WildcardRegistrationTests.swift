import Foundation
import ObserverHarnessInterface
import ScopeJourneyApp
import Testing

@testable import ObserverHarness

/// A registration for every name made through `Observers.center` hears less
/// under a harness than on Foundation's default center: posts made straight
/// on `NotificationCenter.default` reach it only under names the router
/// observes there. Each test pins that difference against Foundation and
/// checks the report says so at the app's line, and that a registration by
/// name keeps Foundation's behaviour and says nothing.
#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
    @Suite struct WildcardRegistrationTests {
        /// Names no other test posts or observes, so nothing else bridges them.
        private static let systemPost = Notification.Name("WildcardRegistrationTests.systemPost")
        private static let appPost = Notification.Name("WildcardRegistrationTests.appPost")
        private static let bridgedPost = Notification.Name("WildcardRegistrationTests.bridgedPost")
        private static let namedPost = Notification.Name("WildcardRegistrationTests.namedPost")

        @Test func onFoundationsCenterARegistrationForEveryNameHearsADirectPost() async {
            await #expect(processExitsWith: .success) {
                let log = NotificationLog()
                log.start()
                NotificationCenter.default.post(name: WildcardRegistrationTests.systemPost, object: nil)
                log.stop()
                #expect(log.heard(WildcardRegistrationTests.systemPost))
            }
        }

        @Test func underAHarnessItDoesNotAndTheReportSaysSoAtTheAppsLine() {
            let harness = Harness()
            let log = NotificationLog()
            withObserverHarness(harness) {
                log.start()
                NotificationCenter.default.post(name: Self.systemPost, object: nil)
                Observers.center.post(name: Self.appPost, object: nil)
                log.stop()
            }
            #expect(!log.heard(Self.systemPost), "the difference the note is about")
            #expect(log.heard(Self.appPost), "posts through Observers.center still reach it")
            let notes = harness.analyze().findings.filter { $0.rule == "wildcard-misses-foundation-posts" }
            #expect(notes.count == 1)
            #expect(notes.first?.severity == .note)
            #expect(notes.first?.site?.file == "ScopeJourneyApp/NotificationLogs.swift")
            #expect(notes.first?.site?.line == markedLine(in: "NotificationLogs.swift") + 1)
        }

        @Test func aDirectPostUnderANameObservedThroughTheRouterReachesIt() {
            let harness = Harness()
            let log = NotificationLog()
            let named = NamedNotificationLog()
            withObserverHarness(harness) {
                named.start(observing: [Self.bridgedPost])
                log.start()
                NotificationCenter.default.post(name: Self.bridgedPost, object: nil)
                log.stop()
                named.stop()
            }
            #expect(log.heard(Self.bridgedPost))
            #expect(named.heard(Self.bridgedPost))
        }

        /// The near miss: the names it needs, one registration each, hear the
        /// direct post as on Foundation's center, and nothing is reported.
        @Test func aRegistrationByNameHearsADirectPostAndIsNotNoted() {
            let harness = Harness()
            let named = NamedNotificationLog()
            withObserverHarness(harness) {
                named.start(observing: [Self.namedPost])
                NotificationCenter.default.post(name: Self.namedPost, object: nil)
                named.stop()
            }
            #expect(named.heard(Self.namedPost))
            #expect(harness.analyze().findings.map(\.rule).contains("wildcard-misses-foundation-posts") == false)
        }

        /// The line after the `// ↓ wildcard-misses-foundation-posts` marker in
        /// the app file, read from the source so the test follows the code.
        private func markedLine(in file: String) -> Int {
            let source = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("ScopeJourneyApp").appendingPathComponent(file)
            let lines = (try? String(contentsOf: source, encoding: .utf8))?.components(separatedBy: "\n") ?? []
            let index = lines.firstIndex { $0.contains("// ↓ wildcard-misses-foundation-posts") } ?? -1
            return index + 1
        }
    }
#endif
