// The adoption guide's listener list (AdoptingInAnApp): a library's own
// listeners in an ObserverList, handed out with `observers()`, and a one-shot
// listener held strongly in the weak list. The block between `// article:` and
// `// end` is the article's, verbatim (`.ci/docs` checks it).
import Foundation
import ObserverHarnessInterface
import Testing

public protocol DownloadListener: AnyObject {
    func downloadFinished(_ file: URL)
}

// article: download-events
public final class DownloadEvents: @unchecked Sendable {
    private let listeners = ObserverList<any DownloadListener>(hold: .weak)

    public func addListener(_ listener: any DownloadListener) { listeners.add(listener) }
    public func removeListener(_ listener: any DownloadListener) { listeners.remove(listener) }
    public var currentListeners: [any DownloadListener] { listeners.observers() }

    /// Calls `body` once, on the next finished download.
    public func onNextFinish(_ body: @escaping (URL) -> Void) {
        listeners.add(OneShotListener(events: self, body), hold: .strong)  // the list keeps it
    }

    func finish(_ file: URL) { listeners.notify { $0.downloadFinished(file) } }
}

private final class OneShotListener: DownloadListener {
    weak var events: DownloadEvents?
    let body: (URL) -> Void
    init(events: DownloadEvents, _ body: @escaping (URL) -> Void) { (self.events, self.body) = (events, body) }

    func downloadFinished(_ file: URL) {
        events?.removeListener(self)  // removed after this post: each notify calls whom it began with
        body(file)
    }
}
// end

@Suite struct DownloadEventsTests {
    final class Badge: DownloadListener {
        var finished: [String] = []
        func downloadFinished(_ file: URL) { finished.append(file.lastPathComponent) }
    }

    @Test func aOneShotListenerHearsOneDownloadAndTheListSaysWhoListens() {
        let events = DownloadEvents()
        let badge = Badge()
        events.addListener(badge)
        var once: [String] = []
        events.onNextFinish { once.append($0.lastPathComponent) }
        #expect(events.currentListeners.count == 2)  // the one-shot is kept by the list alone
        #expect(events.currentListeners.first === badge)
        events.finish(URL(fileURLWithPath: "/tmp/a.mp3"))
        events.finish(URL(fileURLWithPath: "/tmp/b.mp3"))
        #expect(once == ["a.mp3"])
        #expect(badge.finished == ["a.mp3", "b.mp3"])
        #expect(events.currentListeners.map { ObjectIdentifier($0) } == [ObjectIdentifier(badge)])
    }

    @Test func aListenerTheAppLetGoIsNoLongerListed() {
        let events = DownloadEvents()
        var badge: Badge? = Badge()
        events.addListener(badge!)
        badge = nil
        #expect(events.currentListeners.isEmpty)
    }
}
