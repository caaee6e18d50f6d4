import Foundation
import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// A hostile scenario file ends in an ``InputError`` with its
    /// path, line and column, never a crash, a hang or unbounded memory.
    /// (Truncated input, invalid UTF-8, deep nesting and wrong types are in
    /// `ScenarioInputErrorTests.swift`.)
    @Suite struct HostileInput {
        static let path = "Hostile.scenario.json"

        private func inputError(_ text: String, limits: Scenario.Limits = Scenario.Limits()) -> InputError? {
            do {
                _ = try Scenario.parse(Array(text.utf8), path: Self.path, limits: limits).run()
                Issue.record("expected an InputError")
                return nil
            } catch {
                return error
            }
        }

        /// A scenario whose header has `version` (as written) and whose steps are `steps`.
        private func document(version: String = "1", steps: String = "[]") -> String {
            #"{ "format": "observer-harness-scenario", "version": \#(version), "scenario": "s", "steps": \#(steps) }"#
        }

        private func expect(
            _ error: InputError?, at position: String, mentioning text: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            #expect(error?.path == Self.path, sourceLocation: sourceLocation)
            #expect(
                error.map { "\($0.line):\($0.column)" } == position, "\(String(describing: error))",
                sourceLocation: sourceLocation)
            #expect(
                error?.message.contains(text) == true, "\(String(describing: error))",
                sourceLocation: sourceLocation)
        }

        /// The column (1-based) where `needle` starts in one-line `text`.
        private func column(of needle: String, in text: String) -> String {
            "1:\(text.utf8.count - (text.range(of: needle).map { text[$0.lowerBound...].utf8.count } ?? 0) + 1)"
        }

        // MARK: Keys and numbers

        @Test func aDuplicateKeyIsReportedAtTheSecondKey() {
            let text = #"{ "format": "observer-harness-scenario", "format": "x", "version": 1, "steps": [] }"#
            expect(
                inputError(text), at: column(of: #""format": "x""#, in: text), mentioning: #"duplicate key "format""#)
        }

        @Test func aDuplicateKeyInsideAStepIsReportedToo() {
            let text = document(steps: #"[ { "op": "create", "object": "a", "object": "b" } ]"#)
            expect(inputError(text), at: column(of: #""object": "b""#, in: text), mentioning: "duplicate key")
        }

        @Test func aNumberBeyondDoubleIsOutOfRangeAtTheNumber() {
            let text = document(version: "1e400")
            expect(inputError(text), at: column(of: "1e400", in: text), mentioning: "number out of range")
        }

        @Test(arguments: ["-0", "18446744073709551616", "1.5", "\"1\"", "true", "null"])
        func aVersionThatIsNotAnIntegerIsReportedAtTheValue(version: String) {
            let text = document(version: version)
            expect(inputError(text), at: column(of: version, in: text), mentioning: "\"version\" must be an integer")
        }

        @Test(arguments: ["0", "2", "-1", "9223372036854775807", "-9223372036854775808"])
        func anUnknownVersionIsReportedAtTheValue(version: String) {
            let text = document(version: version)
            expect(inputError(text), at: column(of: version, in: text), mentioning: "unsupported scenario version")
        }

        @Test func aPayloadNumberBeyondDoubleIsOutOfRange() {
            let steps =
                #"[ { "op": "create", "object": "a", "methods": { "m": [] } }, "#
                + #"{ "op": "invoke", "object": "a", "method": "m", "payload": [-1e999] } ]"#
            let text = document(steps: steps)
            expect(inputError(text), at: column(of: "-1e999", in: text), mentioning: "number out of range")
        }

        // MARK: Wrong types

        @Test(arguments: [
            (#""steps": {}"#, "\"steps\" must be a list"),
            (#""registries": [], "steps": []"#, "\"registries\" must be an object"),
            (#""registries": { "c": { "kind": "subject", "dedupe": "yes" } }, "steps": []"#, "must be true or false"),
            (#""registries": { "c": { "kind": "subject", "hold": 1 } }, "steps": []"#, "\"hold\" must be a string"),
            (#""registries": { "c": { "kind": 7 } }, "steps": []"#, "\"kind\" must be a string"),
            (#""steps": [ 42 ]"#, "a step must be an object"),
            (#""steps": [ { "op": ["create"] } ]"#, "\"op\" must be a string"),
        ])
        func aValueOfTheWrongTypeIsAnError(members: String, message: String) {
            let text = #"{ "format": "observer-harness-scenario", "version": 1, "scenario": "s", \#(members) }"#
            let error = inputError(text)
            #expect(error?.message.contains(message) == true, "\(String(describing: error))")
            #expect(error.map { $0.line == 1 && $0.column > 1 } == true)
        }

        @Test func theWholeDocumentMustBeAnObject() {
            expect(inputError("[1, 2, 3]"), at: "1:1", mentioning: "the scenario must be an object")
        }

        // MARK: Limits

        @Test func moreStepsThanTheLimitIsAnErrorAtTheFirstStepTooMany() {
            var limits = Scenario.Limits()
            limits.maxSteps = 3
            let step = #"{ "op": "create", "object": "a" }"#
            let text = document(steps: "[" + Array(repeating: step, count: 4).joined(separator: ",") + "]")
            let error = inputError(text, limits: limits)
            #expect(error?.message == "more than 3 steps")
            #expect(error?.column == text.utf8.count - step.utf8.count - 2)
        }

        @Test func handlerEffectsCountAsSteps() {
            var limits = Scenario.Limits()
            limits.maxSteps = 3
            let text = document(
                steps: #"[ { "op": "create", "object": "a", "methods": { "m": ["#
                    + #"{ "increment": "k" }, { "increment": "k" }, { "increment": "k" } ] } } ]"#)
            #expect(inputError(text, limits: limits)?.message == "more than 3 steps")
        }

        @Test func moreObjectsThanTheLimitIsAnError() {
            var limits = Scenario.Limits()
            limits.maxObjects = 2
            let steps = (1...3).map { #"{ "op": "create", "object": "o\#($0)" }"# }.joined(separator: ",")
            #expect(inputError(document(steps: "[" + steps + "]"), limits: limits)?.message == "more than 2 objects")
        }

        @Test func theDefaultLimitsAreTheDocumentedOnes() {
            let limits = Scenario.Limits()
            #expect(limits.maxBytes == 4 << 20)
            #expect(limits.maxDepth == 64)
            #expect(limits.maxSteps == 10_000)
            #expect(limits.maxObjects == 2_000)
        }

        @Test func aFileLargerThanTheLimitIsRefusedBeforeItIsParsed() throws {
            let url = try temporaryFile(Data(repeating: UInt8(ascii: " "), count: (4 << 20) + 1))
            defer { try? FileManager.default.removeItem(at: url) }
            do {
                _ = try Scenario.load(contentsOf: url)
                Issue.record("expected an InputError")
            } catch {
                #expect(
                    error.description == "\(url.path):1:1: error: the scenario file is larger than 4 MiB, the limit")
            }
        }

        @Test func anEndlessFileIsReadOnlyUpToTheLimit() {
            // /dev/zero never ends: reading it all would never return.
            do {
                _ = try Scenario.load(contentsOf: URL(fileURLWithPath: "/dev/zero"))
                Issue.record("expected an InputError")
            } catch {
                #expect(error.description == "/dev/zero:1:1: error: the scenario file is larger than 4 MiB, the limit")
            }
        }

        @Test func aFolderIsAnErrorNotACrash() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            do {
                _ = try Scenario.load(contentsOf: folder)
                Issue.record("expected an InputError")
            } catch {
                #expect(
                    error.description == "\(folder.path):1:1: error: cannot read the scenario file: "
                        + "it is a folder, not a file")
            }
        }

        // MARK: Size without quadratic time (each once took minutes)

        /// Columns on one very long line: every step's position used to cost a
        /// scan from the start of the line.
        @Test(.timeLimit(.minutes(1)))
        func aScenarioOnOneLongLineIsReadInLinearTime() {
            let step = #"{ "op": "create", "object": "x", "type": "Élan" }, { "op": "release", "object": "x" }"#
            let steps = Array(repeating: step, count: 2_600).joined(separator: ", ") + #", { "op": "explode" }"#
            let text = document(steps: "[" + steps + "]")
            #expect(text.utf8.count > 200_000)
            // The column counts the "É"s before it once each, as scalars.
            let expected = "1:\(text.unicodeScalars.count - #""explode" }] }"#.unicodeScalars.count + 1)"
            expect(inputError(text), at: expected, mentioning: "unknown op \"explode\"")
        }

        private func temporaryFile(_ data: Data) throws -> URL {
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("hostile-\(UUID().uuidString).scenario.json")
            try data.write(to: url)
            return url
        }
    }
}
