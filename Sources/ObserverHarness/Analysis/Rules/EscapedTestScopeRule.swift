/// Work that reached a test's scope from outside its task while the harness
/// could not tell which test it belonged to. Live only: scenarios have no
/// test scopes.
struct EscapedTestScopeRule: Rule {
    let descriptor = RuleDescriptor(
        id: "escaped-test-scope", severity: .warning, category: .design,
        summary: "A post or registration came from outside the test's task while several tests' scopes were open.",
        explanation: """
            Work that leaves a test's task — a DispatchQueue block, an OperationQueue, a Thread, a timer, \
            Task.detached, an object made before the test — carries no test scope. When one test runs at a time \
            the harness gives such work to the running test, as the app's default center would. With tests \
            running in parallel it cannot tell whose it is: a post reaches every open test's observers (as it \
            would reach every observer of the default center) and a registration goes to Foundation's default \
            center, unrecorded. The app behaves as in production, but the test may hear another test's posts, and \
            the harness may miss this test's own misuse.
            """,
        fix: """
            Carry the test's scope across the hop with Observers.withEscapedScope { escaped in … escaped.yield { … } }, \
            create the object inside the test's scope, or run the suite serialized (@Suite(.serialized)).
            """,
        triggering: [], clean: [], liveOnly: true)

    let firesOnlyWith = EventKinds(.scopeEscape)

    func check(_ trace: TraceIndex, into findings: inout RuleFindings) {
        for sequence in trace.scopeEscapes {
            let event = trace.events[sequence]
            let how = ExecutionContext(rawValue: UInt8(truncatingIfNeeded: event.registration)) ?? .unknown
            let openScopes = Int(event.registration >> 8)
            let name = event.channel == 0 ? nil : trace.string(event.channel)
            let work =
                event.flags.contains(.escapedRegistration)
                ? "A registration\(name.map { " for \"\($0)\"" } ?? "")"
                : "A post\(name.map { " of \"\($0)\"" } ?? "")"
            let outcome =
                openScopes > 1
                ? event.flags.contains(.escapedRegistration)
                    ? "went to Foundation's default center, unrecorded"
                    : "reached all \(openScopes) of them, as the default center would"
                : "was given to this test, the only one open, though it may be another's"
            let scopes = openScopes > 1 ? "\(openScopes) tests' scopes were open" : "tests run in parallel"
            findings.append(
                finding(
                    "\(work) at \(siteText(trace, event.site)) came from \(how.phrase) while \(scopes): it \(outcome).",
                    registry: trace.registryName(event.registry), channel: name, step: trace.step(of: sequence),
                    site: trace.site(event.site), location: trace.location(event.site), events: [sequence]))
        }
    }
}
