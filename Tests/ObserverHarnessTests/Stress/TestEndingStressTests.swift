import Foundation
import ScopeJourneyApp
import Testing

@testable import ObserverHarness

#if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
    /// A name only this suite posts.
    private let endingPing = Notification.Name("TestEndingStressTests.ping")

    /// Tests ending while posts that nothing ties to a test keep coming from
    /// another thread. On Foundation's default center a registration hears
    /// every post once; under the harness it must too, whether a post arrives
    /// while its test runs or after, when the registration is a leftover. Runs
    /// in a child process: it needs tests of its own, and no others, running.
    @Suite(.tags(.stress)) struct TestEndingStressTests {
        @Test func aRegistrationHearsEveryUntoldPostOnceWhileItsTestEnds() async {
            await #expect(processExitsWith: .success) {
                let posts = 40
                var wrong: [String] = []
                for round in 0..<300 {
                    let heard = Counter()
                    var ending: Harness? = Harness.besideOthers()
                    let token = withObserverHarness(ending!) {
                        Observers.center.addObserver(forName: endingPing, object: nil, queue: nil) { _ in
                            heard.bump()
                        }
                    }
                    let done = DispatchSemaphore(value: 0)
                    Thread {
                        for _ in 0..<posts { Observers.center.post(name: endingPing, object: nil) }
                        done.signal()
                    }.start()
                    // The test ends somewhere among the posts, a different place each round.
                    while heard.value < round % posts { sched_yield() }
                    ending = nil
                    done.wait()
                    if heard.value != posts { wrong.append("round \(round): heard \(heard.value) of \(posts)") }
                    Observers.center.removeObserver(token)
                }
                #expect(wrong.isEmpty, "\(wrong.count) rounds: \(wrong.prefix(5).joined(separator: "; "))")
            }
        }
    }
#endif
