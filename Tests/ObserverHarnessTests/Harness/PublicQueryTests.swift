import Foundation
import ObserverHarness
import Testing

/// The queries a team's own tooling relies on, through the public API only
/// (this file imports the library without `@testable`).
@Suite struct PublicQueryTests {
    static let changed = Notification.Name("PublicQueryTests.changed")

    final class Box: @unchecked Sendable {
        var text = ""
    }

    /// Two receivers: the second reads what the first wrote.
    static func banner(_ order: DeliveryOrder) -> String {
        let center = Harness().notificationCenter(order: order)
        let box = Box()
        let first = center.addObserver(forName: changed, object: nil, queue: nil) { _ in box.text += "a" }
        let second = center.addObserver(forName: changed, object: nil, queue: nil) { _ in box.text += "b" }
        center.post(name: changed, object: nil)
        withExtendedLifetime((first, second)) {}
        return box.text
    }

    @Test func theOrderCheckReturnsWhatItFoundWithoutFailingTheTest() {
        let check = checkOrderIndependence(Self.banner)
        #expect(!check.isIndependent)
        #expect(check.baseline == "ab")
        #expect(check.dependences.first?.value == "ba")
        #expect(check.dependences.first?.receivers.count == 2)
    }

    @Test func theOrderCheckOfAnIndependentBodyIsIndependent() {
        let check = checkOrderIndependence { order in
            let center = Harness().notificationCenter(order: order)
            center.post(name: Self.changed, object: nil)
            return 1
        }
        #expect(check.isIndependent)
    }

    @Test func thePackagesGoldenFolderIsFoundFromTheTestFile() throws {
        let folder = try #require(goldenDirectory())
        #expect(folder.lastPathComponent == "Golden")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.deletingLastPathComponent().appendingPathComponent("Package.swift").path))
    }
}
