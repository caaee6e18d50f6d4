import Testing

@testable import ObserverHarness

extension ReplayTests {
    /// Invalid async-observation steps end with an ``InputError`` at the
    /// offending token.
    @Suite struct InvalidLoopInput {
        private func parseError(_ steps: String) -> InputError? {
            do {
                _ = try InlineScenario(steps).parse()
                return nil
            } catch {
                return error
            }
        }

        @Test func anUnknownLoopIsReportedAtItsName() throws {
            let error = try #require(parseError(#"[ { "op": "run-loop", "loop": "ghost" } ]"#))
            #expect(error.message.contains("unknown loop \"ghost\""))
            #expect(error.path == InlineScenario.path)
        }

        @Test func aLoopNameIsDeclaredOnce() throws {
            let error = try #require(
                parseError(
                    """
                    [ { "op": "open-loop", "registry": "center", "loop": "l", "channel": "A" },
                      { "op": "open-loop", "registry": "center", "loop": "l", "channel": "B" } ]
                    """))
            #expect(error.message.contains("declared twice"))
        }

        @Test func aBufferSizeNeedsATypedLoop() throws {
            let error = try #require(
                parseError(
                    """
                    [ { "op": "open-loop", "registry": "center", "loop": "l", "channel": "A", "bufferSize": 3 } ]
                    """))
            #expect(error.message.contains("typed loops"))
        }

        @Test func aZeroBufferSizeIsRefused() throws {
            let error = try #require(
                parseError(
                    """
                    [ { "op": "open-loop", "registry": "center", "loop": "l", "channel": "A", "typed": true,
                        "bufferSize": 0 } ]
                    """))
            #expect(error.message.contains("at least 1"))
        }

        @Test func aLoopOnlyObservesANotificationCenter() throws {
            let error = try #require(
                parseError(
                    """
                    [ { "op": "open-loop", "registry": "subject", "loop": "l", "channel": "A" } ]
                    """))
            #expect(error.message.contains("does not apply"))
        }

        @Test func anUnownedLoopHoldIsRefused() throws {
            let error = try #require(
                parseError(
                    """
                    [ { "op": "open-loop", "registry": "center", "loop": "l", "channel": "A", "hold": "unowned" } ]
                    """))
            #expect(error.message.contains("\"strong\""))
        }

        @Test func typedBelongsToNotificationCenters() throws {
            let error = try #require(
                parseError(
                    """
                    [ { "op": "post", "registry": "subject", "typed": true } ]
                    """))
            #expect(error.message.contains("notification-center"))
        }

        @Test func aLoopBodyWithoutAnOwnerHasNoSelf() throws {
            let error = try #require(
                parseError(
                    """
                    [ { "op": "open-loop", "registry": "center", "loop": "l", "channel": "A",
                        "handler": [ { "release": "self" } ] } ]
                    """))
            #expect(error.message.contains("self"))
        }

        @Test func aHandlerCanCancelALoopInline() throws {
            _ = try InlineScenario(
                """
                [ { "op": "create", "object": "s", "methods": { "deinit": [ { "cancel-loop": "l" } ] } },
                  { "op": "open-loop", "registry": "center", "loop": "l", "owner": "s", "channel": "A" },
                  { "op": "release", "object": "s" } ]
                """
            ).parse()
        }
    }
}
