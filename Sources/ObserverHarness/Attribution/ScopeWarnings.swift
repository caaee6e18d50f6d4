import Foundation
import ObserverHarnessInterface

/// What the harness says on standard error where it cannot keep the app's
/// behaviour, or a test's record, as they would be without it, and cannot
/// fail a test for it either (whether two tests overlap is timing): at the
/// app's line, once per kind, name and line, with the fix.
enum ScopeWarnings {
    private static let lock = Lock()
    nonisolated(unsafe) private static var told = Set<String>()  // guarded by `lock`

    /// Writes `message` as a warning at `location`, unless `key` was told already.
    static func tell(_ key: String, at location: CodeLocation, _ message: @autoclosure () -> String) {
        let key = "\(key)\u{0}\(location.fileID):\(location.line)"
        guard lock.withLock({ told.insert(key).inserted }) else { return }
        let text = "\(location.filePath):\(location.line):\(location.column): warning: observer harness: \(message())\n"
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// A registry made in one running test's scope, changed from another's:
    /// its harness records the change, the caller's does not. Told once.
    static func checkForeignChange(
        of registry: String, kind: String, recordedBy recorder: Recorder, at location: CodeLocation
    ) {
        guard ScopeRouter.shared.isAnyTestRunning,
            let scope = RegistryScope.provider as? HarnessRegistries, !scope.hasEnded,
            scope.recorderID != ObjectIdentifier(recorder),
            ScopeRouter.shared.isRunning(recorder: ObjectIdentifier(recorder))
        else { return }
        tell(
            "foreign \(kind) \(registry)", at: location,
            "this \(kind) \"\(registry)\" was made in another running test's scope, so that test's harness "
                + "records this change and judges it, and this test's does not: a registry belongs to the "
                + "test that made it. If it is a shared object's (a `lazy var` of a `static let shared`, made "
                + "in whichever test touched it first), make the object and touch the registry outside every "
                + "test's scope before the tests use it (`await Task.detached { _ = Manager.shared.delegate }.value`), "
                + "or inject it.")
    }
}
