/// Work from outside every test's task that nothing tied to one test reached
/// this test's observers. A note: the harness delivered it as the default
/// center would and judged none of it, so it fails nobody. Live only:
/// scenarios have no test scopes.
struct EscapedTestScopeRule: Rule {
    let descriptor = RuleDescriptor(
        id: "escaped-test-scope", severity: .note, category: .design,
        summary: "A post from outside every test's task, tied to no test, reached this test's observers unjudged.",
        explanation: """
            Work that leaves a test's task — a DispatchQueue block, an OperationQueue, a Thread, a timer, \
            Task.detached — carries no test scope. The harness gives it to a test when something ties it to one: \
            the center an object stored when the test made it, an object only that test has used (the post's \
            sender or subject), a handler of that test's running the work; under XCTest, which runs one test at a \
            time, the running test. When nothing does and tests run in parallel, it cannot tell whose the post is: \
            it reaches every running test's observers, as the default center would, and no test records it as its \
            own, so a misuse in it is not caught. It fails no test. An object several running tests use (a shared \
            manager) ties its work to none of them while they overlap, so whether such a post is checked depends \
            on the tests beside this one; the message says when that is the case.
            """,
        fix: """
            To have the work checked, tie it to its test: carry the scope across the hop with \
            Observers.withEscapedScope { escaped in … escaped.yield { … } }, store Observers.center in the object \
            when the test makes it, or post with the object as the sender (object:) once the test has used that \
            object with a registry (observed it, or posted with it). For a shared manager's work only carrying the \
            scope ties it to the test in every run.
            """,
        triggering: [], clean: [], liveOnly: true)

    let firesOnlyWith = EventKinds(.scopeEscape)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        for sequence in trace.scopeEscapes {
            let event = trace.events[sequence]
            let how = ExecutionContext(rawValue: UInt8(truncatingIfNeeded: event.registration)) ?? .unknown
            let running = Int(event.registration >> 8)
            let name = event.channel == 0 ? nil : trace.string(event.channel)
            let post = "A post\(name.map { " of \(ValuePreview.quoted($0))" } ?? "")"
            let tests = running == 1 ? "1 test was running" : "\(running) tests were running"
            // A shared object (a `static let shared` manager) ties its work to no test
            // while tests that use it overlap: only carrying the scope does.
            let shared =
                event.flags.contains(.sharedObject)
                ? " Its sender is an object several running tests have used (a shared manager), so it ties the "
                    + "post to none of them, and whether it is checked depends on which tests run beside this one: "
                    + "carry the scope across the hop with Observers.withEscapedScope to have it checked in every run."
                : ""
            // A post made straight on Foundation's center has no line of the app's to name.
            let direct = how == .foundationCenter
            let origin =
                direct
                ? "\(post) was made straight on NotificationCenter.default, outside the test's task"
                : "\(post) at \(siteText(trace, event.site)) came from \(how.phrase)"
            findings.append(
                finding(
                    "\(origin), and nothing tied it to one test (\(tests)): it reached this test's observers "
                        + "unrecorded, as the default center would, and was not checked." + shared,
                    registry: trace.registryName(event.registry), channel: name, step: trace.step(of: sequence),
                    site: direct ? nil : trace.site(event.site), location: direct ? nil : trace.location(event.site),
                    events: [sequence]))
        }
    }
}
