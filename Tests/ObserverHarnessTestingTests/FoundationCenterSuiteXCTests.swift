import Foundation
import ObserverHarness
import ObserverHarnessInterface
import ObserverHarnessTesting
import XCTest

/// The behaviours Foundation's own `NotificationCenter` tests check (a fresh
/// center, block registrations, `nil` names, removal, posts from operation
/// queues, blocks given a queue), each run on three centers: Foundation's,
/// the instrumented drop-in, and `Observers.center` under a harness. Every
/// run must behave as Foundation's and leave the harness quiet.
final class FoundationCenterSuiteXCTests: XCTestCase {
    private enum Kind: CaseIterable { case foundation, instrumented, observersCenter }

    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Bool
        init(_ value: Bool) { stored = value }
        var value: Bool {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    private final class Sender: NSObject, Sendable {}

    /// Runs `body` with a center of each kind; under a harness, expects no
    /// warning or error afterwards.
    private func onEveryCenter(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        _ body: (any NotificationCenterProtocol, String) -> Void
    ) {
        for kind in Kind.allCases {
            let name = "\(kind)"
            switch kind {
            case .foundation:
                body(NotificationCenter(), name)
            case .instrumented:
                let harness = Harness()
                body(harness.notificationCenter(), name)
                _ = assertFindings(harness, fileID: fileID, filePath: filePath, line: line)
            case .observersCenter:
                let harness = Harness()
                withObserverHarness(harness) { body(Observers.center, name) }
                _ = assertFindings(harness, fileID: fileID, filePath: filePath, line: line)
            }
        }
    }

    private func unique(_ function: String = #function) -> Notification.Name {
        Notification.Name("FoundationCenterSuiteXCTests.\(function)")
    }

    func testAPostReachesABlockFilteredToItsSender() {
        let name = unique()
        onEveryCenter { center, kind in
            let heard = Flag(false)
            let sender = Sender()
            let token = center.addObserver(forName: name, object: sender, queue: nil) { note in
                XCTAssertEqual(note.name, name, kind)
                XCTAssertTrue(note.object as? Sender === sender, kind)
                heard.value = true
            }
            center.post(name: name, object: sender)
            XCTAssertTrue(heard.value, kind)
            center.removeObserver(token)
        }
    }

    func testAPostFromAnotherSenderMissesAFilteredBlock() {
        let name = unique()
        onEveryCenter { center, kind in
            let missed = Flag(true)
            let sender = Sender(), other = Sender()
            let token = center.addObserver(forName: name, object: sender, queue: nil) { _ in missed.value = false }
            center.post(name: name, object: other)
            XCTAssertTrue(missed.value, kind)
            center.removeObserver(token)
        }
    }

    func testARemovedBlockAmongSeveralHearsNothing() {
        let name = unique()
        onEveryCenter { center, kind in
            let first = Flag(false), removed = Flag(true), third = Flag(false)
            let tokens = [
                center.addObserver(forName: name, object: nil, queue: nil) { _ in first.value = true },
                center.addObserver(forName: name, object: nil, queue: nil) { _ in removed.value = false },
                center.addObserver(forName: name, object: nil, queue: nil) { _ in third.value = true },
            ]
            center.removeObserver(tokens[1])
            center.post(name: name, object: nil)
            XCTAssertTrue(first.value && removed.value && third.value, kind)
            center.removeObserver(tokens[0])
            center.removeObserver(tokens[2])
        }
    }

    func testANilNameHearsEveryNameAndAnotherNameHearsNothing() {
        let name = unique(), other = Notification.Name("FoundationCenterSuiteXCTests.other")
        onEveryCenter { center, kind in
            let named = Flag(false), otherName = Flag(true), everyName = Flag(false)
            let tokens = [
                center.addObserver(forName: name, object: nil, queue: nil) { _ in named.value = true },
                center.addObserver(forName: other, object: nil, queue: nil) { _ in otherName.value = false },
                center.addObserver(forName: nil, object: nil, queue: nil) { _ in everyName.value = true },
            ]
            center.post(name: name, object: nil)
            XCTAssertTrue(named.value && otherName.value && everyName.value, kind)
            for token in tokens { center.removeObserver(token) }
        }
    }

    func testARemovedBlockHearsNothing() {
        let name = unique()
        onEveryCenter { center, kind in
            let missed = Flag(true)
            let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in missed.value = false }
            center.removeObserver(token)
            center.post(name: name, object: nil)
            XCTAssertTrue(missed.value, kind)
        }
    }

    func testABlockWithNoQueueRunsOnThePostingQueue() {
        let name = unique()
        onEveryCenter { center, kind in
            let posting = OperationQueue()
            let ran = expectation(description: "\(kind): the block ran")
            let token = center.addObserver(forName: name, object: nil, queue: nil) { _ in
                XCTAssertEqual(OperationQueue.current, posting, kind)
                ran.fulfill()
            }
            posting.addOperation { center.post(name: name, object: nil) }
            wait(for: [ran], timeout: 5)
            center.removeObserver(token)
        }
    }

    func testBlocksGivenQueuesHaveRunWhenAMainThreadPostReturns() {
        postWithBlocksOnQueues(from: .mainThread)
    }

    func testBlocksGivenQueuesHaveRunWhenAPostFromTheirQueueReturns() {
        postWithBlocksOnQueues(from: .observingQueue)
    }

    func testBlocksGivenQueuesHaveRunWhenAPostFromAnUnrelatedQueueReturns() {
        postWithBlocksOnQueues(from: .unrelatedQueue)
    }

    private enum Poster { case mainThread, observingQueue, unrelatedQueue }

    /// One block on an operation queue, one on the main queue: both have run,
    /// each on its queue, when a post from `poster` returns.
    private func postWithBlocksOnQueues(from poster: Poster, function: String = #function) {
        let name = unique(function)
        onEveryCenter { center, kind in
            let observing = OperationQueue()
            let onObserving = Flag(false), onMain = Flag(false)
            let tokens = [
                center.addObserver(forName: name, object: nil, queue: observing) { _ in
                    XCTAssertEqual(OperationQueue.current, observing, kind)
                    onObserving.value = true
                },
                center.addObserver(forName: name, object: nil, queue: .main) { _ in
                    XCTAssertEqual(OperationQueue.current, .main, kind)
                    onMain.value = true
                },
            ]
            let post: @Sendable () -> Void = {
                center.post(name: name, object: nil)
                XCTAssertTrue(onObserving.value && onMain.value, kind)
            }
            switch poster {
            case .mainThread:
                post()
            case .observingQueue, .unrelatedQueue:
                let posted = expectation(description: "\(kind): the post returned")
                (poster == .observingQueue ? observing : OperationQueue()).addOperation {
                    post()
                    posted.fulfill()
                }
                wait(for: [posted], timeout: 5)
            }
            for token in tokens { center.removeObserver(token) }
        }
    }
}
