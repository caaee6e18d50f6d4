// Tests import only ObserverHarness and still see the registry protocols app
// code is written against.
@_exported import ObserverHarnessInterface
