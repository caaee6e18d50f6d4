/// Where the app's code called a registry: the caller's `#fileID`, `#filePath`,
/// `#line` and `#column`.
///
/// Every registry method takes these four as defaulted parameters, so a
/// finding points at the line that called it. An app wrapper that forwards to
/// a registry declares the same four parameters and passes them on, so the
/// finding points at the wrapper's caller, not inside the wrapper:
///
/// ```swift
/// final class ThemeStore {
///     private let observers = ObserverList<any ThemeObserver>(hold: .weak)
///
///     func addObserver(_ observer: any ThemeObserver,
///                      fileID: StaticString = #fileID, filePath: StaticString = #filePath,
///                      line: UInt = #line, column: UInt = #column) {
///         observers.add(observer, fileID: fileID, filePath: filePath, line: line, column: column)
///     }
/// }
/// ```
///
/// (A defaulted `location: CodeLocation = CodeLocation()` parameter would not
/// do: Swift fills `CodeLocation()`'s own defaults at the wrapper's declaration.)
///
/// Registrations also carry the caller's isolation (`#isolation`), so the
/// harness can tell when a handler registered on the main actor runs off it.
/// A wrapper that registers forwards it the same way:
///
/// ```swift
/// func addObserver(_ observer: any ThemeObserver, fileID: StaticString = #fileID, …,
///                  isolation: (any Actor)? = #isolation) {
///     observers.add(observer, fileID: fileID, …, isolation: isolation)
/// }
/// ```
public struct CodeLocation: Sendable {
    public var fileID: StaticString
    public var filePath: StaticString
    public var line: UInt
    public var column: UInt
    /// The actor the calling code was isolated to, for registrations; nil
    /// for nonisolated code (and for calls that are not registrations).
    public var isolation: (any Actor)?

    public init(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column, isolation: (any Actor)? = nil
    ) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
        self.isolation = isolation
    }
}
