// Seed article 000 — "iOS-观察者模式" (麦兜卖鱼丸, 2016): a `Subject` with
// `addObserver:selector:` / `notify`, and a singleton `NotifyCenter` with
// `addObserver:selector:name:` / `notify:`. Both keep their observers in a strong
// `NSMutableArray`, append every registration, and have no removal.
//
// Golden scenarios: Golden/seeds/subject-and-notify-center/.

import Foundation
import Testing

@testable import ObserverHarness

@Suite struct SeedsSubjectAndNotifyCenterTests {
    // MARK: The article's classes, in Swift, on the instrumented registries

    /// `Oberver` (sic): `- (void)update { NSLog(@"...%@", _name); }`.
    final class Oberver {
        let name: String
        let console: Console
        init(name: String, console: Console) {
            self.name = name
            self.console = console
        }
        func update() { console.lines.append(name) }
    }

    /// Stands in for NSLog.
    final class Console { var lines: [String] = [] }

    /// `Subject`: `@property (nonatomic, strong) NSMutableArray *observers`,
    /// `-addObserver:selector:` and `-notify`. `removeObserver` is the fix;
    /// the article's class has none.
    final class Subject {
        let observers: ObserverList<Oberver>
        init(harness: Harness) {
            observers = harness.observerList("subject", of: Oberver.self, hold: .strong)
        }
        func addObserver(_ observer: Oberver) { observers.add(observer) }
        func removeObserver(_ observer: Oberver) { observers.remove(observer) }
        func notify() { observers.notify { $0.update() } }
    }

    /// `NotifyCenter` (`+shared`): every `-addObserver:selector:name:` appends
    /// `@{aName: @{@"object":object, ...}}` to a strong array; `-notify:` walks it.
    /// `dedupe` and `removeObserver` are the fixes.
    final class NotifyCenter {
        let observers: ObserverList<Oberver>
        init(harness: Harness, dedupe: Bool = false) {
            observers = harness.observerList("notifyCenter", of: Oberver.self, hold: .strong, dedupe: dedupe)
        }
        func addObserver(_ object: Oberver, name: String) { observers.add(object, channel: name) }
        func removeObserver(_ object: Oberver) { observers.remove(object) }
        func notify(_ name: String) { observers.notify(channel: name) { $0.update() } }
    }

    /// `Subscribe`: `- (void)change { [[NotifyCenter shared] notify:@"change"]; }`.
    final class Subscribe {
        let center: NotifyCenter
        init(center: NotifyCenter) { self.center = center }
        func change() { center.notify("change") }
    }

    // MARK: subject-strong-observers

    @Test func subjectKeepsViewDidLoadLocalsAlive() {
        let harness = Harness(name: "subject-strong-observers")
        let console = Console()
        let subject = Subject(harness: harness)
        weak var weakOne: Oberver?
        do {
            // -viewDidLoad: `Oberver *one = ...; [_subject addObserver:one selector:@selector(update)];`
            let one = Oberver(name: "one", console: console)
            let two = Oberver(name: "two", console: console)
            harness.track(one, label: "one")
            harness.track(two, label: "two")
            weakOne = one
            subject.addObserver(one)
            subject.addObserver(two)
            harness.noteReleased(one)  // the locals go at the end of viewDidLoad
            harness.noteReleased(two)
        }
        subject.notify()  // -testButton: [_subject notify]
        #expect(weakOne != nil)
        #expect(console.lines == ["one", "two"])

        let report = harness.analyze()
        let leaks = report.findings.filter { $0.rule == "registration-keeps-observer-alive" }
        #expect(leaks.map(\.objects) == [["one"], ["two"]])
        #expect(Set(report.errorsAndWarnings.map(\.rule)) == ["registration-keeps-observer-alive"])
    }

    /// The fix: the view controller owns its observers and removes them in its dealloc.
    final class SubjectViewController {
        let subject: Subject
        let one: Oberver
        let two: Oberver
        init(subject: Subject, console: Console, harness: Harness) {
            self.subject = subject
            one = Oberver(name: "one", console: console)
            two = Oberver(name: "two", console: console)
            harness.track(one, label: "one")
            harness.track(two, label: "two")
            subject.addObserver(one)
            subject.addObserver(two)
        }
        deinit {
            subject.removeObserver(one)
            subject.removeObserver(two)
        }
    }

    @Test func subjectWithRemovalInTheOwnersDeallocIsClean() {
        let harness = Harness(name: "subject-strong-observers-fixed")
        let console = Console()
        let subject = Subject(harness: harness)
        weak var weakOne: Oberver?
        do {
            let vc = SubjectViewController(subject: subject, console: console, harness: harness)
            harness.track(vc, label: "vc")
            weakOne = vc.one
            subject.notify()
            harness.noteReleased(vc)
        }
        #expect(weakOne == nil)
        #expect(console.lines == ["one", "two"])
        let report = harness.analyze()
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
    }

    // MARK: notify-center-strong-observers

    @Test func notifyCenterKeepsEveryRegisteredObserverForever() {
        let harness = Harness(name: "notify-center-strong-observers")
        let console = Console()
        let center = NotifyCenter(harness: harness)
        let subscribe = Subscribe(center: center)
        do {
            let third = Oberver(name: "third", console: console)
            let four = Oberver(name: "four", console: console)
            harness.track(third, label: "third")
            harness.track(four, label: "four")
            center.addObserver(third, name: "change")  // [[NotifyCenter shared] addObserver:third ...]
            center.addObserver(four, name: "change")
            harness.noteReleased(third)
            harness.noteReleased(four)
        }
        subscribe.change()  // -testButton: [_subscribe change]
        #expect(console.lines == ["third", "four"])

        let report = harness.analyze()
        let leaks = report.findings.filter { $0.rule == "registration-keeps-observer-alive" }
        #expect(leaks.map(\.objects) == [["third"], ["four"]])
        #expect(leaks.allSatisfy { $0.channel == "change" })
        #expect(Set(report.errorsAndWarnings.map(\.rule)) == ["registration-keeps-observer-alive"])
    }

    final class NotifyCenterViewController {
        let center: NotifyCenter
        let third: Oberver
        let four: Oberver
        init(center: NotifyCenter, console: Console, harness: Harness) {
            self.center = center
            third = Oberver(name: "third", console: console)
            four = Oberver(name: "four", console: console)
            harness.track(third, label: "third")
            harness.track(four, label: "four")
            center.addObserver(third, name: "change")
            center.addObserver(four, name: "change")
        }
        deinit {
            center.removeObserver(third)
            center.removeObserver(four)
        }
    }

    @Test func notifyCenterWithRemovalIsClean() {
        let harness = Harness(name: "notify-center-strong-observers-fixed")
        let console = Console()
        let center = NotifyCenter(harness: harness)
        let subscribe = Subscribe(center: center)
        weak var weakThird: Oberver?
        do {
            let vc = NotifyCenterViewController(center: center, console: console, harness: harness)
            harness.track(vc, label: "vc")
            weakThird = vc.third
            subscribe.change()
            harness.noteReleased(vc)
        }
        #expect(weakThird == nil)
        subscribe.change()  // reaches nobody stale
        #expect(console.lines == ["third", "four"])
        let report = harness.analyze()
        #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
    }

    // MARK: notify-center-duplicate-registration

    @Test(arguments: [false, true])
    func notifyCenterAppendsEveryRegistration(dedupe: Bool) {
        let harness = Harness(name: "notify-center-duplicate-registration")
        let console = Console()
        let center = NotifyCenter(harness: harness, dedupe: dedupe)
        let third = Oberver(name: "third", console: console)
        harness.track(third, label: "third")
        center.addObserver(third, name: "change")
        center.addObserver(third, name: "change")  // e.g. registration moved to viewWillAppear
        Subscribe(center: center).change()

        let report = harness.analyze()
        if dedupe {
            // Fixed: `addObserver:selector:name:` returns when the entry exists.
            #expect(console.lines == ["third"])
            #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
        } else {
            #expect(console.lines == ["third", "third"])
            let duplicates = report.findings.filter { $0.rule == "duplicate-registration" }
            #expect(duplicates.count == 1)
            #expect(duplicates.first?.objects == ["third"])
            #expect(report.errorsAndWarnings.map(\.rule) == ["duplicate-registration"])
        }
        withExtendedLifetime(third) {}
    }

    // MARK: The golden scenarios of this article

    @Test(arguments: [
        ("subject-strong-observers", ["registration-keeps-observer-alive", "registration-keeps-observer-alive"]),
        ("subject-strong-observers-fixed", []),
        ("notify-center-strong-observers", ["registration-keeps-observer-alive", "registration-keeps-observer-alive"]),
        ("notify-center-strong-observers-fixed", []),
        ("notify-center-duplicate-registration", ["duplicate-registration"]),
        ("notify-center-duplicate-registration-fixed", []),
    ])
    func goldenScenario(name: String, expected: [String]) throws {
        let report = try SeedScenarios.report(seed: "subject-and-notify-center", name: name)
        #expect(report.errorsAndWarnings.map(\.rule) == expected)
        #expect(report.findings.allSatisfy { $0.severity != .note })
    }
}
