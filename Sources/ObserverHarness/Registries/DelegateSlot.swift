/// One owner's delegate, instrumented: who was set, replaced, called, and
/// whether the delegate was still alive when called.
///
/// ```swift
/// let delegate = harness.delegateSlot(of: scroller, as: HorizontalScrollerDelegate.self)
/// delegate.set(albumScreen)
/// delegate.call("didSelectView") { $0.horizontalScroller(scroller, didSelectViewAt: 2) }
/// ```
public final class DelegateSlot<Delegate>: @unchecked Sendable {
    let store: RegistrationStore<Void>
    private let ownerID: UInt32
    private let hold: Hold
    // Guarded by the recorder's lock.
    private var current: Registration<Void>?

    init(recorder: Recorder, name: String, owner: AnyObject, hold: Hold, location: CodeLocation) {
        ownerID = recorder.objectID(for: owner, site: location)
        self.hold = hold
        store = RegistrationStore(recorder: recorder, info: RegistryInfo(name: name, kind: .delegate),
                                  order: .registration)
    }

    /// The delegate, if set and alive.
    public var delegate: Delegate? {
        store.recorder.withLock { current?.observer as? Delegate }
    }

    /// Assigns the delegate (`nil` clears it).
    public func set(_ delegate: Delegate?,
                    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                    line: UInt = #line, column: UInt = #column) {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let recorder = store.recorder
        let object = delegate.flatMap { classInstance($0 as Any) }
        let delegateID = object.map { recorder.objectID(for: $0, site: location) } ?? 0
        recorder.withLock {
            let context = ThreadContext.current
            current?.isActive = false
            current = object.map {
                Registration(id: recorder.newRegistrationIDLocked(), observer: $0, observerID: delegateID,
                             hold: hold, channel: 0, anyChannel: true, senderID: ownerID, tokenForm: false,
                             site: recorder.siteIDLocked(.location(location)), handler: ())
            }
            _ = recorder.appendLocked(Event(kind: .delegateSet, flags: EventFlags(hold: hold),
                                            site: recorder.siteIDLocked(.location(location)), registry: store.registryID,
                                            object: delegateID, subject: ownerID,
                                            registration: current?.id ?? 0), context: context)
        }
    }

    /// The owner calls `method` on its delegate: `body` runs if the delegate is
    /// alive. Returns what `body` returned, or nil when there was no call.
    @discardableResult
    public func call<Result>(_ method: String,
                             fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                             line: UInt = #line, column: UInt = #column,
                             _ body: (Delegate) -> Result) -> Result? {
        let location = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let recorder = store.recorder
        let context = ThreadContext.current
        var receiver: Registration<Void>?
        var channel: UInt32 = 0
        let callSequence: UInt32 = recorder.withLock {
            receiver = current
            channel = recorder.internLocked(method)
            return recorder.appendLocked(Event(kind: .delegateCall, site: recorder.siteIDLocked(.location(location)),
                                               registry: store.registryID, channel: channel,
                                               object: current?.observerID ?? 0, subject: ownerID), context: context)
        }
        var result: Result?
        if let receiver {
            store.deliverAll([receiver], postSequence: callSequence, channel: channel, senderID: ownerID,
                             context: context) { _, observer, _ in
                if let delegate = observer as? Delegate { result = body(delegate) }
            }
        }
        return result
    }
}
