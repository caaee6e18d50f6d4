import Foundation
import ObserverHarness
import ObserverHarnessTesting
import ScopeJourneyApp
import XCTest

/// The twins through `ObserverHarnessTestCase`: a bug is expected with
/// `expectFindings`, a near miss fails on any finding, as in an app's suite.
final class RuleTwinXCTests: ObserverHarnessTestCase {
    private func check(_ index: Int) async {
        let twin = RuleTwins.all[index]
        harnessOptions.threshold = .note  // a near miss has no finding at all
        if twin.isBug { expectFindings([twin.rule]) }
        guard let harness else { return XCTFail("no harness") }
        await twin.run(twinHooks(harness))
        await harness.settle()
        let report = harness.analyze()
        for failure in twinFailures(twin, report) { XCTFail("\(twin): \(failure)") }
        // Read when the test ends: a bug's companion notes do not fail it.
        if twin.isBug {
            harnessOptions.allowed = report.findings.filter { $0.severity == .note && $0.rule != twin.rule }
                .map { .rule($0.rule) }
        }
    }

    func testTwin00() async { await check(0) }
    func testTwin01() async { await check(1) }
    func testTwin02() async { await check(2) }
    func testTwin03() async { await check(3) }
    func testTwin04() async { await check(4) }
    func testTwin05() async { await check(5) }
    func testTwin06() async { await check(6) }
    func testTwin07() async { await check(7) }
    func testTwin08() async { await check(8) }
    func testTwin09() async { await check(9) }
    func testTwin10() async { await check(10) }
    func testTwin11() async { await check(11) }
    func testTwin12() async { await check(12) }
    func testTwin13() async { await check(13) }
    func testTwin14() async { await check(14) }
    func testTwin15() async { await check(15) }
    func testTwin16() async { await check(16) }
    func testTwin17() async { await check(17) }
    func testTwin18() async { await check(18) }
    func testTwin19() async { await check(19) }
    func testTwin20() async { await check(20) }
    func testTwin21() async { await check(21) }
    func testTwin22() async { await check(22) }
    func testTwin23() async { await check(23) }
    func testTwin24() async { await check(24) }
    func testTwin25() async { await check(25) }
    func testTwin26() async { await check(26) }
    func testTwin27() async { await check(27) }
    func testTwin28() async { await check(28) }
    func testTwin29() async { await check(29) }
    func testTwin30() async { await check(30) }
    func testTwin31() async { await check(31) }
    func testTwin32() async { await check(32) }
    func testTwin33() async { await check(33) }
    func testTwin34() async { await check(34) }
    func testTwin35() async { await check(35) }
    func testTwin36() async { await check(36) }
    func testTwin37() async { await check(37) }

    func testEveryTwinHasATest() {
        XCTAssertEqual(RuleTwins.all.count, 38, "add a testTwinNN for each new twin")
    }
}
