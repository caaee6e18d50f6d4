#!/usr/bin/env bash
# Fuzzes the scenario parser (with replay) and the trace reader (with analysis)
# with libFuzzer, from a seed corpus built out of Golden/.
#
#   Fuzz/run.sh [SECONDS]     each fuzzer runs SECONDS (default 60); both run at once
#
# Builds into .build-fuzz/fuzz (FUZZ_BUILD_DIR overrides): the library's sources
# and both entry points are compiled once, as one module, with
# -sanitize=fuzzer,address; each fuzzer is linked from those objects. The
# corpus is rebuilt from Golden/ on every run and never committed.
#
# Exits 0 when neither fuzzer found anything; otherwise prints each finding's
# input file (crash, timeout, out-of-memory or leak) and exits 1. Reproduce one
# with `.build-fuzz/fuzz/scenario-fuzzer FILE`, then add it to the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
build=${FUZZ_BUILD_DIR:-.build-fuzz/fuzz}
# A crash must end the run: the Swift backtracer would otherwise wait.
export SWIFT_BACKTRACE=enable=no

mkdir -p "$build"
build=$(cd "$build" && pwd)
sources=$(find Sources/ObserverHarness -name '*.swift' | LC_ALL=C sort)
duplicates=$(for file in $sources; do basename "$file"; done | LC_ALL=C sort | uniq -d)
if [ -n "$duplicates" ]; then
  echo "error: Fuzz/run.sh compiles one object per file name, and these repeat: $duplicates" >&2
  exit 2
fi

echo "== building the fuzzers (swiftc -sanitize=fuzzer,address)"
rm -rf "$build/obj"
mkdir -p "$build/obj"
root=$(pwd)
# The interface product is its own module (the library re-exports it).
rm -rf "$build/obj-interface" "$build/modules"
mkdir -p "$build/obj-interface" "$build/modules"
(
  cd "$build/obj-interface"
  # shellcheck disable=SC2046
  swiftc -c -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 \
    -module-name ObserverHarnessInterface -package-name ObserverHarness \
    -emit-module -emit-module-path "$build/modules/ObserverHarnessInterface.swiftmodule" \
    $(find "$root/Sources/ObserverHarnessInterface" -name '*.swift' | LC_ALL=C sort)
) 2>&1 | tee "$build/build-interface.log"
(
  cd "$build/obj"
  # shellcheck disable=SC2086
  swiftc -c -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 \
    -module-name ObserverHarnessFuzz -package-name ObserverHarness -I "$build/modules" \
    $(for file in $sources; do echo "$root/$file"; done) \
    "$root/Fuzz/ScenarioFuzzer.swift" "$root/Fuzz/TraceFuzzer.swift"
) 2>&1 | tee "$build/build.log"
if grep -q "warning:" "$build/build.log" "$build/build-interface.log"; then
  echo "error: the fuzz build printed warnings (zero warnings is the rule)" >&2
  exit 2
fi
library=$(ls "$build"/obj/*.o | grep -v -e '/ScenarioFuzzer\.o$' -e '/TraceFuzzer\.o$')
library="$library $(ls "$build"/obj-interface/*.o)"
for fuzzer in Scenario Trace; do
  lower=$(echo "$fuzzer" | tr '[:upper:]' '[:lower:]')
  # shellcheck disable=SC2086
  swiftc -sanitize=fuzzer,address -use-ld=lld $library "$build/obj/${fuzzer}Fuzzer.o" -o "$build/$lower-fuzzer"
done

echo "== seed corpus from Golden/"
rm -rf "$build/corpus" "$build/artifacts"
mkdir -p "$build/corpus/scenario" "$build/corpus/trace" "$build/artifacts"
count=0
while IFS= read -r file; do
  count=$((count + 1))
  cp "$file" "$build/corpus/scenario/$count-$(basename "$file")"
done < <(find Golden -name '*.scenario.json' | LC_ALL=C sort)
echo "$count scenario seeds"
OBSERVER_HARNESS_TRACE_SEEDS="$build/corpus/trace" "$build/trace-fuzzer" Golden

echo "== fuzzing for ${seconds}s each"
run_fuzzer() {
  local name=$1
  # -timeout: seconds per input (a hang); -rss_limit_mb: memory (unbounded growth);
  # -max_len: larger than any seed, so mutations can grow.
  "$build/$name-fuzzer" "$build/corpus/$name" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -dict="Fuzz/$name.dict" -artifact_prefix="$build/artifacts/$name-" -print_final_stats=1 \
    > "$build/$name.log" 2>&1
}
status=0
run_fuzzer scenario & scenario_pid=$!
run_fuzzer trace & trace_pid=$!
wait "$scenario_pid" || status=1
wait "$trace_pid" || status=1

for name in scenario trace; do
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$build/$name.log" | grep -o '[0-9]*$' || echo "?")
  echo "$name: $runs executions (log: $build/$name.log)"
done
findings=$(find "$build/artifacts" -type f | LC_ALL=C sort)
if [ -n "$findings" ] || [ "$status" -ne 0 ]; then
  for name in scenario trace; do
    grep -E -A3 '^==[0-9]+==.*(ERROR|WARNING)|^(SUMMARY|Fatal error|Test unit written)|ALARM' "$build/$name.log" || true
  done
  echo "error: the fuzzers found these inputs:" >&2
  for file in $findings; do echo "  $file" >&2; done
  exit 1
fi
echo "no findings"
