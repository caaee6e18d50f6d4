import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// Names compare as Swift strings, a token is declared once, an effect's
    /// key is its kind, and a version is a number (`1.0` is 1).
    @Suite struct NamesAndShapes {
        static let path = "Names.scenario.json"

        private func parse(_ text: String) throws(InputError) -> Scenario {
            try Scenario.parse(Array(text.utf8), path: Self.path)
        }

        private func inputError(_ text: String) -> InputError? {
            do {
                _ = try parse(text)
                return nil
            } catch {
                return error
            }
        }

        private func document(version: String = "1", registries: String = "{}", steps: String) -> String {
            """
            { "format": "observer-harness-scenario", "version": \(version), "scenario": "s",
              "registries": \(registries),
              "steps": \(steps) }
            """
        }

        private func expect(
            _ error: InputError?, at position: String, mentioning text: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            guard let error else {
                Issue.record("expected an InputError mentioning \(text)", sourceLocation: sourceLocation)
                return
            }
            #expect(error.path == Self.path, sourceLocation: sourceLocation)
            #expect("\(error.line):\(error.column)" == position, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(text), "\(error)", sourceLocation: sourceLocation)
        }

        @Test func registriesEqualAsSwiftStringsAreADuplicate() {
            let text = document(
                registries: #"{ "caf\u00e9": { "kind": "subject" }, "cafe\u0301": { "kind": "notification-center" } }"#,
                steps: "[]")
            expect(inputError(text), at: "2:55", mentioning: #"registry "café" is declared twice"#)
        }

        @Test func objectsEqualAsSwiftStringsAreADuplicate() {
            let text = document(
                steps: #"[ { "op": "create", "object": "caf\u00e9" }, { "op": "create", "object": "cafe\u0301" } ]"#)
            expect(inputError(text), at: "3:85", mentioning: "already exists")
        }

        @Test func aRegistryNamedOneWayIsFoundWrittenTheOtherWay() throws {
            let text = document(
                registries: #"{ "caf\u00e9": { "kind": "subject" } }"#,
                steps: #"[ { "op": "post", "registry": "cafe\u0301" } ]"#)
            #expect(try parse(text).steps.count == 1)
        }

        @Test func aTokenIsDeclaredOnce() {
            let text = document(
                registries: #"{ "center": { "kind": "notification-center" } }"#,
                steps: """
                    [ { "op": "create", "object": "a" },
                      { "op": "observe", "registry": "center", "observer": "a", "channel": "N", "handler": [], "token": "t" },
                      { "op": "observe", "registry": "center", "observer": "a", "channel": "M", "handler": [], "token": "t" } ]
                    """)
            expect(inputError(text), at: "5:101", mentioning: #"token "t" is declared twice"#)
        }

        @Test func tokensEqualAsSwiftStringsAreOneToken() {
            let text = document(
                registries: #"{ "center": { "kind": "notification-center" } }"#,
                steps: """
                    [ { "op": "create", "object": "a" },
                      { "op": "observe", "registry": "center", "observer": "a", "channel": "N", "handler": [], "token": "caf\\u00e9" },
                      { "op": "observe", "registry": "center", "observer": "a", "channel": "M", "handler": [], "token": "cafe\\u0301" } ]
                    """)
            expect(inputError(text), at: "5:101", mentioning: "is declared twice")
        }

        @Test func anEffectWhoseOpDisagreesWithItsKeyIsInvalid() {
            let text = document(
                registries: #"{ "center": { "kind": "notification-center" } }"#,
                steps: """
                    [ { "op": "create", "object": "a", "methods": { "tap": [] } },
                      { "op": "observe", "registry": "center", "observer": "a", "channel": "N",
                        "handler": [ { "post": { "op": "invoke", "object": "a", "method": "tap" } } ] } ]
                    """)
            expect(inputError(text), at: "5:36", mentioning: #""op": "invoke" inside a "post" effect"#)
        }

        @Test func anEffectMayRepeatItsOwnOp() throws {
            let text = document(
                registries: #"{ "center": { "kind": "notification-center" } }"#,
                steps: """
                    [ { "op": "create", "object": "a" },
                      { "op": "observe", "registry": "center", "observer": "a", "channel": "N",
                        "handler": [ { "post": { "op": "post", "registry": "center", "channel": "M" } } ] } ]
                    """)
            #expect(try parse(text).steps.count == 2)
        }

        @Test func aMethodDefinedTwiceIsInvalid() {
            let text = document(
                steps: #"[ { "op": "create", "object": "a", "methods": { "caf\u00e9": [], "cafe\u0301": [] } } ]"#)
            expect(inputError(text), at: "3:77", mentioning: "is defined twice")
        }

        @Test(arguments: ["1.0", "1e0", "10e-1"])
        func aWholeNumberVersionWrittenAsADecimalIsThatVersion(version: String) throws {
            #expect(try parse(document(version: version, steps: "[]")).steps.isEmpty)
        }

        @Test func aFractionalVersionIsNotAVersion() {
            expect(
                inputError(document(version: "1.5", steps: "[]")), at: "1:53",
                mentioning: "\"version\" must be an integer")
        }

        @Test func aDecimalVersionOfAnotherNumberIsUnsupported() {
            expect(
                inputError(document(version: "2.0", steps: "[]")), at: "1:53",
                mentioning: "unsupported scenario version 2")
        }

        @Test func aReportWrittenWithADecimalVersionReadsAsVersionOne() throws {
            let text =
                #"{"format": "observer-harness-report", "version": 1.0, "scenario": "s", "#
                + #""summary": {"events": 0}, "findings": []}"#
            #expect(try ReportSet.parse(Array(text.utf8), path: "r.json").reports.count == 1)
        }
    }
}
