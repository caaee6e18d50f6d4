import Foundation
import Observation
import ObserverHarnessInterface

/// Where playback is within an episode's chapters, an `@Observable` model.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable
public final class ChapterProgress: @unchecked Sendable {
    public var chapter = 1

    public init() {}
}

/// 1.x: the chapter title under the artwork. It observes the chapter once, so
/// after the first chapter change the title never moves again.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public final class ChapterTitle: @unchecked Sendable {
    public private(set) var changesHeard = 0
    private let progress: ChapterProgress

    public init(progress: ChapterProgress) {
        self.progress = progress
        observe()
    }

    private func observe() {
        Observers.withObservationTracking(  // bug: observation-not-rearmed
            { [progress] in progress.chapter }, onChange: { [weak self] in self?.changesHeard += 1 }, owner: self)
    }
}

/// The chapter list's highlight: it observes again from `onChange`, so it
/// hears every chapter change.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public final class ChapterListHighlight: @unchecked Sendable {
    public private(set) var changesHeard = 0
    private let progress: ChapterProgress

    public init(progress: ChapterProgress) {
        self.progress = progress
        observe()
    }

    private func observe() {
        Observers.withObservationTracking(
            { [progress] in progress.chapter },
            onChange: { [weak self] in
                guard let self else { return }
                changesHeard += 1
                observe()
            }, owner: self)
    }
}
