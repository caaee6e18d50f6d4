/// How a registry holds an observer or delegate.
///
/// ```swift
/// let observers = ObserverList<any ThemeObserver>(hold: .weak)
/// ```
public enum Hold: String, Sendable, CaseIterable, Codable {
    /// Keeps the observer alive; releasing it without removing it leaks it.
    case strong
    /// The observer may deallocate while registered; deliveries to it are skipped.
    case weak
    /// The observer may deallocate while registered, and a delivery after that
    /// is a message to a dead object: a crash with a hand-written `unowned`.
    /// The plain registries skip it as `weak` does; the harness reports it.
    case unowned
}
