import ObserverHarnessInterface
import Testing

@testable import ObserverHarness

/// A recording reads the text of its live call sites from the process's
/// catalog, by number, rather than copying each: what it reads must be what
/// the app's calls gave, whatever came before or after.
@Suite struct SiteCatalogTests {
    /// Lines no other test uses: the catalog is the process's.
    private static func location(line: UInt, column: UInt = 7) -> CodeLocation {
        CodeLocation(fileID: "SiteCatalogTests/Far.swift", filePath: "/tmp/Far.swift", line: line, column: column)
    }

    @Test func thousandsOfSitesEachKeepTheirOwnText() {
        let recorder = Recorder()
        let lines = (0..<3_000).map { UInt(900_000 + $0) }
        let ids = lines.map { recorder.siteID(Self.location(line: $0)) }
        #expect(Set(ids).count == lines.count, "two sites share an id")
        // Again, in another order: the same ids.
        for index in stride(from: lines.count - 1, through: 0, by: -7) {
            #expect(recorder.siteID(Self.location(line: lines[index])) == ids[index])
        }
        let recording = recorder.snapshot()
        for (line, id) in zip(lines, ids) {
            #expect(recording.site(id) == CallSite(file: "SiteCatalogTests/Far.swift", line: Int(line), column: 7))
            #expect(recording.location(id)?.line == line)
        }
    }

    /// A test late in a long suite meets sites the catalog numbered in the
    /// tens of thousands: its table of them is a few pages, not an array up
    /// to the largest number.
    @Test func aRecordingsSiteTableHoldsPagesOfTheNumbersItMet() {
        var table = SiteIDsByNumber()
        #expect(table[0] == 0 && table[65_535] == 0)
        table.set(1, for: 3)  // app code, numbered early
        // The test's own, numbered late: the first and last numbers of a page of 64, and the next page's first.
        table.set(2, for: 59_968)
        table.set(3, for: 60_031)
        table.set(4, for: 60_032)
        #expect(table[3] == 1 && table[59_968] == 2 && table[60_031] == 3 && table[60_032] == 4)
        #expect(table[4] == 0 && table[59_967] == 0 && table[59_969] == 0 && table[60_033] == 0)
        #expect(table[65_535] == 0)
        // Three pages of ids and a start for each page up to the last: a few
        // kilobytes, where an array up to number 60 032 took 240.
        #expect(table.byteCount < 8_192, "the table grew with the catalog: \(table.byteCount) bytes")
        table.set(5, for: 59_968)
        #expect(table[59_968] == 5 && table[60_031] == 3)
    }

    /// `@inlinable` code's `#fileID` is emitted into each module that inlines
    /// it: one text at several addresses is one site, with one number.
    @Test func theSameTextAtAnotherAddressIsTheSameSite() throws {
        let location = Self.location(line: 940_000)
        let literal = SiteKey(location)
        // Another address with the same text: a copy that lives as long as the catalog (the process).
        let copy = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        let elsewhere = SiteKey(file: copy, line: literal.line, column: literal.column)
        let catalog = SiteCatalog.shared
        let number = try #require(catalog.number(for: literal, location))
        #expect(catalog.number(for: elsewhere, location) == number)
        let nextLine = Self.location(line: 940_001)
        let other = catalog.number(for: SiteKey(file: copy, line: nextLine.line, column: nextLine.column), nextLine)
        #expect(other != nil && other != number)
        #expect(catalog.site(number) == CallSite(file: "SiteCatalogTests/Far.swift", line: 940_000, column: 7))
    }

    @Test func theSameLineAtAnotherColumnIsAnotherSite() {
        let recorder = Recorder()
        let first = recorder.siteID(Self.location(line: 910_001, column: 3))
        let second = recorder.siteID(Self.location(line: 910_001, column: 4))
        #expect(first != second)
        #expect(recorder.snapshot().site(second)?.column == 4)
    }

    @Test func aSnapshotStillReadsItsSitesAfterTheCatalogGrows() {
        let recorder = Recorder()
        let id = recorder.siteID(Self.location(line: 920_000))
        let early = recorder.snapshot()
        // Enough new sites for the catalog to take new chunks and grow its table.
        for line in 920_001...920_600 { _ = Recorder().siteID(Self.location(line: UInt(line))) }
        #expect(early.site(id) == CallSite(file: "SiteCatalogTests/Far.swift", line: 920_000, column: 7))
        #expect(early.sites.count == early.siteLocations.count)
    }

    /// A site that comes as text (a scenario's step) after live ones: sites
    /// are indexed by text from then on, and the live ones keep text and location.
    @Test func aSiteGivenAsTextAfterLiveSitesMatchesTheirText() {
        let recorder = Recorder()
        let live = recorder.siteID(Self.location(line: 930_000))
        let other = recorder.siteID(Self.location(line: 930_001))
        let asText = recorder.siteID(CallSite(file: "SiteCatalogTests/Far.swift", line: 930_000, column: 7))
        #expect(asText == live)
        let later = recorder.siteID(Self.location(line: 930_002))
        let recording = recorder.snapshot()
        #expect(Set([live, other, later]).count == 3)
        #expect(recording.site(other)?.line == 930_001)
        #expect(recording.site(later)?.line == 930_002)
        #expect(recording.location(live)?.line == 930_000)
        #expect(recording.location(later)?.line == 930_002)
    }

    /// Live sites add nothing to the recorder's own list of sites until one
    /// comes as text; every id still names its site, in `sites` as by `site(_:)`.
    @Test func everyIDNamesItsSiteWhetherLiveOrAppended() {
        let recorder = Recorder()
        let first = recorder.siteID(Self.location(line: 940_000))
        let second = recorder.siteID(Self.location(line: 940_001))
        let appended = recorder.appendSite(CallSite(file: "Scenario.json", line: 3))
        let third = recorder.siteID(Self.location(line: 940_002))
        #expect([first, second, appended, third] == [1, 2, 3, 4])
        let recording = recorder.snapshot()
        #expect(recording.sites.map(\.line) == [0, 940_000, 940_001, 3, 940_002])
        #expect(recording.siteLocations.map { $0?.line } == [nil, 940_000, 940_001, nil, 940_002])
        #expect(recording.site(appended)?.file == "Scenario.json")
        #expect(recording.site(third)?.line == 940_002)
        // Live only: the ids past the placeholder are the catalog's.
        let liveOnly = Recorder()
        let ids = (940_010...940_012).map { liveOnly.siteID(Self.location(line: UInt($0))) }
        #expect(liveOnly.snapshot().sites.map(\.line) == [0, 940_010, 940_011, 940_012])
        #expect(ids == [1, 2, 3])
    }
}
