import ObserverHarnessInterface

/// What the play/pause/skip buttons ask of their screen.
@MainActor
public protocol PlayerControlsDelegate: AnyObject {
    func controlsDidTapSkip(_ controls: PlayerControls)
}

/// The row of playback buttons. Its delegate is held strongly: the screen
/// owns the controls, so each keeps the other alive.
@MainActor
public final class PlayerControls {
    public private(set) lazy var delegate = DelegateSlot<any PlayerControlsDelegate>(of: self, hold: .strong)

    public init() {}

    public func tapSkip() {
        delegate.call { $0.controlsDidTapSkip(self) }
    }
}

/// The full-screen player.
@MainActor
public final class NowPlayingScreen: PlayerControlsDelegate {
    public let controls = PlayerControls()
    private let player: Player

    public init(player: Player) {
        self.player = player
        controls.delegate.set(self)  // bug: registration-keeps-observer-alive (strong delegate)
    }

    /// Dismissal: lets go of the controls' strong reference first.
    public func close() {
        controls.delegate.set(nil)
    }

    public func controlsDidTapSkip(_ controls: PlayerControls) {
        player.seek(to: player.position.value + 30)
    }
}
