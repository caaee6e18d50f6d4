import ObserverHarness
import Podcast

@MainActor
extension Wirings {
    /// The 1.x chapter title observes the chapter once and misses the second
    /// change; the chapter list's highlight observes again from `onChange`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public static var observationNotRearmed: Wiring {
        Wiring(
            "observation-not-rearmed", "Chapters.swift",
            buggy: { harness in
                let progress = ChapterProgress()
                let title = ChapterTitle(progress: progress)
                harness.track(title, label: "chapter title")
                progress.chapter = 2
                progress.chapter = 3
                return [progress, title]
            },
            clean: { harness in
                let progress = ChapterProgress()
                let highlight = ChapterListHighlight(progress: progress)
                harness.track(highlight, label: "chapter highlight")
                progress.chapter = 2
                progress.chapter = 3
                return [progress, highlight]
            })
    }
}
