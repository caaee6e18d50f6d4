import Testing

extension Tag {
    /// Slow tests that push a limit — eight threads at once, inputs at their
    /// size limit, thousands of long names — so a run can single them out.
    @Tag static var stress: Self
}
