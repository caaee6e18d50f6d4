import Foundation
import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// Invalid scenarios: every case ends with an ``InputError`` at
    /// the line and column of the offending token.
    @Suite struct InvalidInput {
        /// Three header lines; the steps start on line 4, column 1.
        static let header = """
            { "format": "observer-harness-scenario", "version": 1, "scenario": "bad",
              "registries": { "center": { "kind": "notification-center" } },
              "steps": [

            """
        static let footer = "\n] }\n"

        /// The error parsing (and, when it parses, running) `text`.
        private func inputError(_ text: String) -> InputError? {
            inputError(bytes: Array(text.utf8))
        }

        private func inputError(bytes: [UInt8]) -> InputError? {
            do {
                _ = try Scenario.parse(bytes, path: "Bad.scenario.json").run()
                return nil
            } catch {
                return error
            }
        }

        private func inputError(steps: String) -> InputError? {
            inputError(Self.header + steps + Self.footer)
        }

        /// Checks path, line, column and that the message mentions `mentioning`.
        private func expect(
            _ error: InputError?, line: Int, column: Int, mentioning: String,
            sourceLocation: Testing.SourceLocation = #_sourceLocation
        ) {
            guard let error else {
                Issue.record("expected an InputError at \(line):\(column)", sourceLocation: sourceLocation)
                return
            }
            #expect(error.path == "Bad.scenario.json", sourceLocation: sourceLocation)
            #expect("\(error.line):\(error.column)" == "\(line):\(column)", "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(mentioning), "\(error)", sourceLocation: sourceLocation)
        }

        @Test func anUnknownOpIsReportedAtItsName() {
            expect(inputError(steps: #"{ "op": "explode" }"#), line: 4, column: 9, mentioning: "unknown op \"explode\"")
        }

        /// A center's `observe` without `channel` would silently observe every
        /// name; every name is asked for with `null`, which stays valid.
        @Test func aCentersObserveWithoutAChannelIsReportedNotMadeAWildcard() {
            let create = #"{ "op": "create", "object": "a" },"# + "\n"
            expect(
                inputError(
                    steps: create + #"{ "op": "observe", "registry": "center", "observer": "a", "handler": [] }"#),
                line: 5, column: 1, mentioning: "needs a \"channel\" (a name, or null for every name)")
            let wildcard =
                #"{ "op": "observe", "registry": "center", "observer": "a", "channel": null, "handler": [] }"#
            #expect(inputError(steps: create + wildcard) == nil)
        }

        /// A site copied from a report may name line 0 (no line of source): the
        /// error says so, where other bad sites are told the form.
        @Test(arguments: [
            ("NotificationCenter.default:0", "names line 0, no line of source"),
            ("Feed.swift", "must look like \"File.swift:LINE\""),
            ("Feed.swift:-3", "must look like \"File.swift:LINE\""),
        ])
        func aBadSiteSaysWhatIsWrongWithIt(site: String, message: String) {
            expect(
                inputError(steps: #"{ "op": "create", "object": "a", "site": "\#(site)" }"#),
                line: 4, column: 42, mentioning: message)
        }

        @Test func anUnknownFieldIsReportedAtItsKey() {
            expect(
                inputError(steps: #"{ "op": "create", "object": "a", "colour": "red" }"#),
                line: 4, column: 34, mentioning: "unknown field \"colour\"")
        }

        @Test func aTokenOwnerFlagThatIsNotABooleanIsReportedAtTheValue() {
            let steps = """
                { "op": "create", "object": "a" }, { "op": "create", "object": "b" },
                { "op": "retain", "holder": "a", "target": "b", "tokenOwner": "yes" }
                """
            expect(inputError(steps: steps), line: 5, column: 63, mentioning: "tokenOwner")
        }

        @Test func aValueOfTheWrongTypeIsReportedAtTheValue() {
            expect(
                inputError(steps: #"{ "op": "create", "object": 7 }"#),
                line: 4, column: 29, mentioning: "must be a string")
        }

        @Test func anObjectUsedBeforeItsCreateIsReportedAtTheName() {
            expect(
                inputError(
                    steps: """
                        { "op": "release", "object": "a" },
                        { "op": "create", "object": "a" }
                        """), line: 4, column: 30, mentioning: "before its create")
        }

        @Test func anObjectUsedAfterItsReleaseIsReportedAtTheName() {
            expect(
                inputError(
                    steps: """
                        { "op": "create", "object": "a", "methods": { "tap": [] } },
                        { "op": "release", "object": "a" },
                        { "op": "invoke", "object": "a", "method": "tap" }
                        """), line: 6, column: 29, mentioning: "after its release")
        }

        @Test func anUnknownRegistryIsReportedAtItsName() {
            expect(
                inputError(
                    steps: """
                        { "op": "create", "object": "a" },
                        { "op": "observe", "registry": "nowhere", "observer": "a", "channel": "N", "handler": [] }
                        """), line: 5, column: 32, mentioning: "unknown registry \"nowhere\"")
        }

        @Test func anUnknownTokenIsReportedAtItsName() {
            expect(
                inputError(steps: #"{ "op": "drop-token", "token": "ghost" }"#),
                line: 4, column: 32, mentioning: "unknown token \"ghost\"")
        }

        @Test func anUnknownObjectInAHandlerIsReportedAtTheName() {
            expect(
                inputError(
                    steps: """
                        { "op": "create", "object": "a", "methods": { "tap": [ { "release": "ghost" } ] } }
                        """), line: 4, column: 69, mentioning: "unknown object \"ghost\"")
        }

        /// A misspelt method is an error through `"self"` as through the
        /// object's name: a handler that silently does nothing hides the typo.
        @Test func aMisspeltMethodCalledThroughSelfIsReportedAtTheName() {
            expect(
                inputError(
                    steps: """
                        { "op": "create", "object": "a", "methods": { "m": [ { "invoke": { "object": "self", "method": "nothere" } } ] } }
                        """), line: 4, column: 96, mentioning: "\"self\" (object \"a\") has no method \"nothere\"")
            expect(
                inputError(
                    steps: """
                        { "op": "create", "object": "a", "methods": { "m": [] } },
                        { "op": "observe", "registry": "center", "observer": "a", "channel": "C", "handler": [ { "invoke": { "object": "self", "method": "mm" } } ] }
                        """), line: 5, column: 130, mentioning: "\"self\" (object \"a\") has no method \"mm\"")
        }

        @Test func aMethodCalledThroughSelfThatExistsIsAccepted() {
            #expect(
                inputError(
                    steps: """
                        { "op": "create", "object": "a", "methods": { "m": [ { "invoke": { "object": "self", "method": "n" } } ], "n": [] } },
                        { "op": "observe", "registry": "center", "observer": "a", "channel": "C", "handler": [ { "invoke": { "object": "self", "method": "m" } } ] },
                        { "op": "invoke", "object": "a", "method": "m" }
                        """) == nil)
        }

        @Test func aBufferSizeBelowOneIsReportedAtTheValue() {
            expect(
                inputError(
                    steps: """
                        { "op": "create", "object": "s" },
                        { "op": "open-loop", "registry": "center", "loop": "L", "owner": "s", "channel": "T", "typed": true, "bufferSize": 0 }
                        """), line: 5, column: 116, mentioning: "\"bufferSize\" must be at least 1")
        }

        @Test func malformedJSONIsReportedWhereTheParserStopped() {
            expect(inputError(steps: #"{ "op": "create" "object": "a" }"#), line: 4, column: 18, mentioning: "expected")
        }

        @Test func truncatedJSONIsReportedAtTheEndOfInput() {
            expect(
                inputError(Self.header + #"{ "op": "create", "object": "a""#), line: 4, column: 32,
                mentioning: "end of input")
        }

        @Test func bytesThatAreNotUTF8AreReportedAtTheFirstBadByte() {
            let prefix = Array(#"{ "format": "observer-harness-scenario", "version": 1, "scenario": ""#.utf8)
            let bytes = prefix + [0xFF, 0xFE] + Array(#"", "steps": [] }"#.utf8)
            expect(inputError(bytes: bytes), line: 1, column: prefix.count + 1, mentioning: "UTF-8")
        }

        @Test func tenThousandLevelsOfNestingStopAtTheDepthLimitWithoutCrashing() {
            let prefix = #"{ "op": "post", "registry": "center", "channel": "N", "payload": "#
            let steps = prefix + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + " }"
            // The document, "steps" and the step are levels 1–3: the payload's
            // 62nd bracket is level 65, one past the limit of 64.
            expect(inputError(steps: steps), line: 4, column: prefix.utf8.count + 62, mentioning: "nesting deeper")
        }

        @Test func aSecondCreateOfALiveNameIsReportedAtTheName() {
            expect(
                inputError(
                    steps: """
                        { "op": "create", "object": "a" },
                        { "op": "create", "object": "a" }
                        """), line: 5, column: 29, mentioning: "already exists")
        }

        @Test func aNameCanBeCreatedAgainAfterItsRelease() throws {
            let text =
                Self.header + """
                    { "op": "create", "object": "a" },
                    { "op": "release", "object": "a" },
                    { "op": "create", "object": "a" }
                    """ + Self.footer
            _ = try Scenario.parse(Array(text.utf8), path: "Good.scenario.json").run()
        }

        @Test func appendingToANumberIsReportedAtTheAppendWhenTheReplayRunsIt() {
            expect(
                inputError(
                    steps: """
                        { "op": "create", "object": "a", "methods": { "run": [
                          { "increment": "k" },
                          { "append": "k", "value": 1 } ] } },
                        { "op": "invoke", "object": "a", "method": "run" }
                        """), line: 6, column: 3, mentioning: "non-list")
        }

        @Test func incrementingAListIsReportedAtTheIncrement() {
            expect(
                inputError(
                    steps: """
                        { "op": "create", "object": "a", "methods": { "run": [
                          { "append": "k", "value": 1 },
                          { "increment": "k" } ] } },
                        { "op": "invoke", "object": "a", "method": "run" }
                        """), line: 6, column: 3, mentioning: "not a number")
        }

        @Test func settingANonListOverAListIsReportedAtTheSet() {
            expect(
                inputError(
                    steps: """
                        { "op": "create", "object": "a", "methods": { "run": [
                          { "append": "k", "value": 1 },
                          { "set": "k", "value": 2 } ] } },
                        { "op": "invoke", "object": "a", "method": "run" }
                        """), line: 6, column: 3, mentioning: "both as a list and as a non-list")
        }

        /// `create` and `concurrently` are top-level only: a branch cannot run them.
        @Test(arguments: [
            #"{ "op": "create", "object": "a" }"#,
            #"{ "op": "concurrently", "branches": [ [], [] ] }"#,
        ])
        func aBranchThatCreatesOrNestsIsReportedAtItsStep(inner: String) {
            expect(
                inputError(
                    steps: """
                        { "op": "concurrently", "branches": [
                          [ \(inner) ],
                          [] ] }
                        """), line: 5, column: 5, mentioning: "a branch of \"concurrently\" cannot run it")
        }

        @Test func anInputErrorReadsPathLineColumnErrorMessage() {
            let error = InputError(path: "Cart.scenario.json", line: 3, column: 7, message: "unknown op \"x\"")
            #expect(error.description == #"Cart.scenario.json:3:7: error: unknown op "x""#)
        }

        @Test func loadingAFileNamesItsPathInTheError() throws {
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("observer-harness-\(UInt64.random(in: 0...UInt64.max)).scenario.json")
            try Data((Self.header + #"{ "op": "explode" }"# + Self.footer).utf8).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            do {
                _ = try Scenario.load(contentsOf: url)
                Issue.record("expected an InputError")
            } catch {
                #expect(error.path == url.path)
                #expect("\(error.line):\(error.column)" == "4:9")
            }
        }
    }
}
