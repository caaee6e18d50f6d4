import ObserverHarnessInterface

/// Watches the system keyboard and tells its delegate.
@MainActor
public protocol KeyboardWatcherDelegate: AnyObject {
    func keyboardWatcher(_ watcher: KeyboardWatcher, willShowWithHeight height: Double)
}

/// A screen that moves its content out of the keyboard's way.
@MainActor
public protocol KeyboardAvoiding: AnyObject {
    func keyboardWillShow(height: Double)
}

/// The app's one keyboard watcher (the system sends it the keyboard frames).
@MainActor
public final class KeyboardWatcher {
    public private(set) lazy var delegate = DelegateSlot<any KeyboardWatcherDelegate>(of: self)

    public init() {}

    public func systemKeyboardWillShow(height: Double) {
        delegate.call { $0.keyboardWatcher(self, willShowWithHeight: height) }
    }
}

/// The keyboard watcher's delegate in 1.x: it forwards each callback by hand
/// to every screen that has a text field.
@MainActor
public final class KeyboardRouter: KeyboardWatcherDelegate {
    public private(set) lazy var search = DelegateSlot<any KeyboardAvoiding>(of: self, name: "search")
    public private(set) lazy var comments = DelegateSlot<any KeyboardAvoiding>(of: self, name: "comments")

    public init() {}

    public func keyboardWatcher(_ watcher: KeyboardWatcher, willShowWithHeight height: Double) {
        search.call { $0.keyboardWillShow(height: height) }  // bug: delegate-as-broadcast
        comments.call { $0.keyboardWillShow(height: height) }
    }
}

/// The keyboard watcher's delegate since 2.0: only the screen being edited
/// moves out of the way.
@MainActor
public final class FocusedKeyboardRouter: KeyboardWatcherDelegate {
    public private(set) lazy var focused = DelegateSlot<any KeyboardAvoiding>(of: self, name: "focused")

    public init() {}

    public func keyboardWatcher(_ watcher: KeyboardWatcher, willShowWithHeight height: Double) {
        focused.call { $0.keyboardWillShow(height: height) }
    }
}

/// The comments sheet under an episode.
@MainActor
public final class CommentsScreen: KeyboardAvoiding {
    public private(set) var bottomInset = 0.0

    public init() {}

    public func keyboardWillShow(height: Double) {
        bottomInset = height
    }
}
