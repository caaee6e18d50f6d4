extension Finding {
    /// The one line every text rendering of a finding uses — text reports,
    /// JUnit bodies and test failures:
    /// `Cart.swift:12: error: MESSAGE [rule] (step 3) (×2)`.
    ///
    /// A test failure already stands at the site, so it leaves the site out.
    package func line(withSite: Bool = true) -> String {
        let place = withSite ? site.map { "\($0): " } ?? "" : ""
        let step = step.map { " (step \($0))" } ?? ""
        let repeats = count > 1 ? " (×\(count))" : ""
        return "\(place)\(severity.rawValue): \(message) [\(rule)]\(step)\(repeats)"
    }

    /// `fix: …`, the line that follows ``line(withSite:)`` when there is a fix.
    package var fixLine: String? { fix.map { "fix: \($0)" } }
}
