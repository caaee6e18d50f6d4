import Foundation
import ObserverHarness
import ObserverHarnessTesting
import ScopeJourneyApp
import XCTest

/// The twins through `ObserverHarnessTestCase`, one at a time as XCTest
/// runs tests, each run a test of its own (its own harness and end-of-test
/// check). A bug is expected with `expectFindings`, a near miss fails on
/// any finding, as in an app's suite.
final class RuleTwinXCTests: ObserverHarnessTestCase {
    func check(_ index: Int) async {
        let twin = RuleTwins.all[index]
        guard let harness else { return XCTFail("no harness") }
        harnessOptions.threshold = .note  // a near miss has no finding at all
        // One test at a time: work no test's task carried is this test's.
        let bug = twin.isBug && !twin.onlyBesideOthers
        // The order check's findings are the test's own (`checkOrderIndependence`), not its harness's.
        if bug, !["ordering-dependence", "exploration-limit"].contains(twin.rule) { expectFindings([twin.rule]) }
        let findings = await runTwin(twin, under: harness)
        for failure in twinFailures(twin, findings, besideOthers: false) { XCTFail("\(twin): \(failure)") }
        // Read when the test ends: a bug's companion notes do not fail it.
        if bug {
            harnessOptions.allowed = findings.filter { $0.severity == .note && $0.rule != twin.rule }.map {
                .rule($0.rule)
            }
        }
    }

    // Each twin in three tests: XCTest on Linux discovers only methods declared here, and
    // runs a test case instance once.
    func testTwin00Run0() async { await check(0) }
    func testTwin00Run1() async { await check(0) }
    func testTwin00Run2() async { await check(0) }
    func testTwin01Run0() async { await check(1) }
    func testTwin01Run1() async { await check(1) }
    func testTwin01Run2() async { await check(1) }
    func testTwin02Run0() async { await check(2) }
    func testTwin02Run1() async { await check(2) }
    func testTwin02Run2() async { await check(2) }
    func testTwin03Run0() async { await check(3) }
    func testTwin03Run1() async { await check(3) }
    func testTwin03Run2() async { await check(3) }
    func testTwin04Run0() async { await check(4) }
    func testTwin04Run1() async { await check(4) }
    func testTwin04Run2() async { await check(4) }
    func testTwin05Run0() async { await check(5) }
    func testTwin05Run1() async { await check(5) }
    func testTwin05Run2() async { await check(5) }
    func testTwin06Run0() async { await check(6) }
    func testTwin06Run1() async { await check(6) }
    func testTwin06Run2() async { await check(6) }
    func testTwin07Run0() async { await check(7) }
    func testTwin07Run1() async { await check(7) }
    func testTwin07Run2() async { await check(7) }
    func testTwin08Run0() async { await check(8) }
    func testTwin08Run1() async { await check(8) }
    func testTwin08Run2() async { await check(8) }
    func testTwin09Run0() async { await check(9) }
    func testTwin09Run1() async { await check(9) }
    func testTwin09Run2() async { await check(9) }
    func testTwin10Run0() async { await check(10) }
    func testTwin10Run1() async { await check(10) }
    func testTwin10Run2() async { await check(10) }
    func testTwin11Run0() async { await check(11) }
    func testTwin11Run1() async { await check(11) }
    func testTwin11Run2() async { await check(11) }
    func testTwin12Run0() async { await check(12) }
    func testTwin12Run1() async { await check(12) }
    func testTwin12Run2() async { await check(12) }
    func testTwin13Run0() async { await check(13) }
    func testTwin13Run1() async { await check(13) }
    func testTwin13Run2() async { await check(13) }
    func testTwin14Run0() async { await check(14) }
    func testTwin14Run1() async { await check(14) }
    func testTwin14Run2() async { await check(14) }
    func testTwin15Run0() async { await check(15) }
    func testTwin15Run1() async { await check(15) }
    func testTwin15Run2() async { await check(15) }
    func testTwin16Run0() async { await check(16) }
    func testTwin16Run1() async { await check(16) }
    func testTwin16Run2() async { await check(16) }
    func testTwin17Run0() async { await check(17) }
    func testTwin17Run1() async { await check(17) }
    func testTwin17Run2() async { await check(17) }
    func testTwin18Run0() async { await check(18) }
    func testTwin18Run1() async { await check(18) }
    func testTwin18Run2() async { await check(18) }
    func testTwin19Run0() async { await check(19) }
    func testTwin19Run1() async { await check(19) }
    func testTwin19Run2() async { await check(19) }
    func testTwin20Run0() async { await check(20) }
    func testTwin20Run1() async { await check(20) }
    func testTwin20Run2() async { await check(20) }
    func testTwin21Run0() async { await check(21) }
    func testTwin21Run1() async { await check(21) }
    func testTwin21Run2() async { await check(21) }
    func testTwin22Run0() async { await check(22) }
    func testTwin22Run1() async { await check(22) }
    func testTwin22Run2() async { await check(22) }
    func testTwin23Run0() async { await check(23) }
    func testTwin23Run1() async { await check(23) }
    func testTwin23Run2() async { await check(23) }
    func testTwin24Run0() async { await check(24) }
    func testTwin24Run1() async { await check(24) }
    func testTwin24Run2() async { await check(24) }
    func testTwin25Run0() async { await check(25) }
    func testTwin25Run1() async { await check(25) }
    func testTwin25Run2() async { await check(25) }
    func testTwin26Run0() async { await check(26) }
    func testTwin26Run1() async { await check(26) }
    func testTwin26Run2() async { await check(26) }
    func testTwin27Run0() async { await check(27) }
    func testTwin27Run1() async { await check(27) }
    func testTwin27Run2() async { await check(27) }
    func testTwin28Run0() async { await check(28) }
    func testTwin28Run1() async { await check(28) }
    func testTwin28Run2() async { await check(28) }
    func testTwin29Run0() async { await check(29) }
    func testTwin29Run1() async { await check(29) }
    func testTwin29Run2() async { await check(29) }
    func testTwin30Run0() async { await check(30) }
    func testTwin30Run1() async { await check(30) }
    func testTwin30Run2() async { await check(30) }
    func testTwin31Run0() async { await check(31) }
    func testTwin31Run1() async { await check(31) }
    func testTwin31Run2() async { await check(31) }
    func testTwin32Run0() async { await check(32) }
    func testTwin32Run1() async { await check(32) }
    func testTwin32Run2() async { await check(32) }
    func testTwin33Run0() async { await check(33) }
    func testTwin33Run1() async { await check(33) }
    func testTwin33Run2() async { await check(33) }
    func testTwin34Run0() async { await check(34) }
    func testTwin34Run1() async { await check(34) }
    func testTwin34Run2() async { await check(34) }
    func testTwin35Run0() async { await check(35) }
    func testTwin35Run1() async { await check(35) }
    func testTwin35Run2() async { await check(35) }
    func testTwin36Run0() async { await check(36) }
    func testTwin36Run1() async { await check(36) }
    func testTwin36Run2() async { await check(36) }
    func testTwin37Run0() async { await check(37) }
    func testTwin37Run1() async { await check(37) }
    func testTwin37Run2() async { await check(37) }
    func testTwin38Run0() async { await check(38) }
    func testTwin38Run1() async { await check(38) }
    func testTwin38Run2() async { await check(38) }
    func testTwin39Run0() async { await check(39) }
    func testTwin39Run1() async { await check(39) }
    func testTwin39Run2() async { await check(39) }
    func testTwin40Run0() async { await check(40) }
    func testTwin40Run1() async { await check(40) }
    func testTwin40Run2() async { await check(40) }
    func testTwin41Run0() async { await check(41) }
    func testTwin41Run1() async { await check(41) }
    func testTwin41Run2() async { await check(41) }
    func testTwin42Run0() async { await check(42) }
    func testTwin42Run1() async { await check(42) }
    func testTwin42Run2() async { await check(42) }
    func testTwin43Run0() async { await check(43) }
    func testTwin43Run1() async { await check(43) }
    func testTwin43Run2() async { await check(43) }
    func testTwin44Run0() async { await check(44) }
    func testTwin44Run1() async { await check(44) }
    func testTwin44Run2() async { await check(44) }
    func testTwin45Run0() async { await check(45) }
    func testTwin45Run1() async { await check(45) }
    func testTwin45Run2() async { await check(45) }
    func testTwin46Run0() async { await check(46) }
    func testTwin46Run1() async { await check(46) }
    func testTwin46Run2() async { await check(46) }
    func testTwin47Run0() async { await check(47) }
    func testTwin47Run1() async { await check(47) }
    func testTwin47Run2() async { await check(47) }
    func testTwin48Run0() async { await check(48) }
    func testTwin48Run1() async { await check(48) }
    func testTwin48Run2() async { await check(48) }
    func testTwin49Run0() async { await check(49) }
    func testTwin49Run1() async { await check(49) }
    func testTwin49Run2() async { await check(49) }
    func testTwin50Run0() async { await check(50) }
    func testTwin50Run1() async { await check(50) }
    func testTwin50Run2() async { await check(50) }
    func testTwin51Run0() async { await check(51) }
    func testTwin51Run1() async { await check(51) }
    func testTwin51Run2() async { await check(51) }
    func testTwin52Run0() async { await check(52) }
    func testTwin52Run1() async { await check(52) }
    func testTwin52Run2() async { await check(52) }
    func testTwin53Run0() async { await check(53) }
    func testTwin53Run1() async { await check(53) }
    func testTwin53Run2() async { await check(53) }
    func testTwin54Run0() async { await check(54) }
    func testTwin54Run1() async { await check(54) }
    func testTwin54Run2() async { await check(54) }
    func testTwin55Run0() async { await check(55) }
    func testTwin55Run1() async { await check(55) }
    func testTwin55Run2() async { await check(55) }
    func testTwin56Run0() async { await check(56) }
    func testTwin56Run1() async { await check(56) }
    func testTwin56Run2() async { await check(56) }
    func testTwin57Run0() async { await check(57) }
    func testTwin57Run1() async { await check(57) }
    func testTwin57Run2() async { await check(57) }
    func testTwin58Run0() async { await check(58) }
    func testTwin58Run1() async { await check(58) }
    func testTwin58Run2() async { await check(58) }
    func testTwin59Run0() async { await check(59) }
    func testTwin59Run1() async { await check(59) }
    func testTwin59Run2() async { await check(59) }
    func testTwin60Run0() async { await check(60) }
    func testTwin60Run1() async { await check(60) }
    func testTwin60Run2() async { await check(60) }
    func testTwin61Run0() async { await check(61) }
    func testTwin61Run1() async { await check(61) }
    func testTwin61Run2() async { await check(61) }
    func testTwin62Run0() async { await check(62) }
    func testTwin62Run1() async { await check(62) }
    func testTwin62Run2() async { await check(62) }
    func testTwin63Run0() async { await check(63) }
    func testTwin63Run1() async { await check(63) }
    func testTwin63Run2() async { await check(63) }
    func testTwin64Run0() async { await check(64) }
    func testTwin64Run1() async { await check(64) }
    func testTwin64Run2() async { await check(64) }
    func testTwin65Run0() async { await check(65) }
    func testTwin65Run1() async { await check(65) }
    func testTwin65Run2() async { await check(65) }
    func testTwin66Run0() async { await check(66) }
    func testTwin66Run1() async { await check(66) }
    func testTwin66Run2() async { await check(66) }
    func testTwin67Run0() async { await check(67) }
    func testTwin67Run1() async { await check(67) }
    func testTwin67Run2() async { await check(67) }
    func testTwin68Run0() async { await check(68) }
    func testTwin68Run1() async { await check(68) }
    func testTwin68Run2() async { await check(68) }
    func testTwin69Run0() async { await check(69) }
    func testTwin69Run1() async { await check(69) }
    func testTwin69Run2() async { await check(69) }
    func testTwin70Run0() async { await check(70) }
    func testTwin70Run1() async { await check(70) }
    func testTwin70Run2() async { await check(70) }
    func testTwin71Run0() async { await check(71) }
    func testTwin71Run1() async { await check(71) }
    func testTwin71Run2() async { await check(71) }
    func testTwin72Run0() async { await check(72) }
    func testTwin72Run1() async { await check(72) }
    func testTwin72Run2() async { await check(72) }
    func testTwin73Run0() async { await check(73) }
    func testTwin73Run1() async { await check(73) }
    func testTwin73Run2() async { await check(73) }
    func testTwin74Run0() async { await check(74) }
    func testTwin74Run1() async { await check(74) }
    func testTwin74Run2() async { await check(74) }
    func testTwin75Run0() async { await check(75) }
    func testTwin75Run1() async { await check(75) }
    func testTwin75Run2() async { await check(75) }
    func testTwin76Run0() async { await check(76) }
    func testTwin76Run1() async { await check(76) }
    func testTwin76Run2() async { await check(76) }
    func testTwin77Run0() async { await check(77) }
    func testTwin77Run1() async { await check(77) }
    func testTwin77Run2() async { await check(77) }
    func testTwin78Run0() async { await check(78) }
    func testTwin78Run1() async { await check(78) }
    func testTwin78Run2() async { await check(78) }

    func testEveryTwinHasATest() {
        XCTAssertEqual(RuleTwins.all.count, 79, "add testTwinNNRun0...2 for each new twin")
    }
}
