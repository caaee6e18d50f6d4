#!/usr/bin/env bash
# Fuzzes every input harness-cli reads, with libFuzzer:
#
#   scenario      the scenario parser, then replay, exploration and every rendering
#   trace         the trace reader, then analysis and every rendering
#   report        the report reader (`merge`), every rendering, and a JSON round trip
#   baseline      the baseline reader (`--baseline`), its round trip and its use
#   command-line  the command-line parser (NUL-separated words)
#
#   Fuzz/run.sh [SECONDS]     every fuzzer runs SECONDS (default 60), all at once
#
# Each starts from a corpus of the hostile seeds in Fuzz/seeds/KIND/ (BOMs,
# CRLF, surrogates, NaN, 1e400, -0, duplicate keys, limits ± 1, cycles, …)
# plus valid inputs made from Golden/ (scenarios, the traces their replays
# record, their golden reports). Every input is capped: more than 10 s
# (-timeout) or 1 GiB of memory (-rss_limit_mb, -malloc_limit_mb) is a
# finding, like a crash, so a slow or memory-hungry input fails the run.
#
# Builds into .build-fuzz/fuzz (FUZZ_BUILD_DIR overrides): the library's sources
# and the library fuzzers' entry points are compiled once, as one module, with
# -sanitize=fuzzer,address; each fuzzer is linked from those objects. The
# command-line fuzzer is compiled with harness-cli's parser alone. The corpus
# is rebuilt on every run; only Fuzz/seeds/ is committed.
#
# Exits 0 when no fuzzer found anything; otherwise prints each finding's input
# file (crash, timeout, out-of-memory or leak) and exits 1. Reproduce one with
# `.build-fuzz/fuzz/KIND-fuzzer FILE`, then add it to the tests.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
build=${FUZZ_BUILD_DIR:-.build-fuzz/fuzz}
# Per-input caps: a valid scenario replays well under a second even in this
# sanitized build; the largest input a fuzzer makes is -max_len bytes.
input_seconds=10
input_rss_mb=1024
# A crash must end the run: the Swift backtracer would otherwise wait.
export SWIFT_BACKTRACE=enable=no

library_fuzzers="scenario trace report baseline"
fuzzers="$library_fuzzers command-line"
entry() { # scenario → ScenarioFuzzer, command-line → CommandLineFuzzer
  echo "$1" | awk -F- '{ for (i = 1; i <= NF; i++) printf "%s", toupper(substr($i, 1, 1)) substr($i, 2); print "Fuzzer" }'
}

mkdir -p "$build"
build=$(cd "$build" && pwd)
sources=$(find Sources/ObserverHarness -name '*.swift' | LC_ALL=C sort)
duplicates=$(for file in $sources; do basename "$file"; done | LC_ALL=C sort | uniq -d)
if [ -n "$duplicates" ]; then
  echo "error: Fuzz/run.sh compiles one object per file name, and these repeat: $duplicates" >&2
  exit 2
fi

echo "== building the fuzzers (swiftc -sanitize=fuzzer,address)"
root=$(pwd)
rm -rf "$build/obj" "$build/obj-interface" "$build/obj-cli" "$build/modules"
mkdir -p "$build/obj" "$build/obj-interface" "$build/obj-cli" "$build/modules"
# The interface product is its own module (the library re-exports it).
(
  cd "$build/obj-interface"
  # shellcheck disable=SC2046
  swiftc -c -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 \
    -module-name ObserverHarnessInterface -package-name ObserverHarness \
    -emit-module -emit-module-path "$build/modules/ObserverHarnessInterface.swiftmodule" \
    $(find "$root/Sources/ObserverHarnessInterface" -name '*.swift' | LC_ALL=C sort)
) 2>&1 | tee "$build/build-interface.log"
entries=""
for name in $library_fuzzers; do entries="$entries $root/Fuzz/$(entry "$name").swift"; done
(
  cd "$build/obj"
  # shellcheck disable=SC2086
  swiftc -c -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 \
    -module-name ObserverHarnessFuzz -package-name ObserverHarness -I "$build/modules" \
    $(for file in $sources; do echo "$root/$file"; done) $entries
) 2>&1 | tee "$build/build.log"
(
  cd "$build/obj-cli"
  swiftc -c -O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -module-name HarnessCLIFuzz \
    "$root/Sources/harness-cli/Arguments.swift" "$root/Sources/harness-cli/Usage.swift" \
    "$root/Fuzz/CommandLineFuzzer.swift"
) 2>&1 | tee "$build/build-cli.log"
if grep -q "warning:" "$build/build.log" "$build/build-interface.log" "$build/build-cli.log"; then
  echo "error: the fuzz build printed warnings (zero warnings is the rule)" >&2
  exit 2
fi
library=$(ls "$build"/obj/*.o | grep -v -E '/[A-Za-z]+Fuzzer\.o$')
library="$library $(ls "$build"/obj-interface/*.o)"
for name in $library_fuzzers; do
  # shellcheck disable=SC2086
  swiftc -sanitize=fuzzer,address -use-ld=lld $library "$build/obj/$(entry "$name").o" -o "$build/$name-fuzzer"
done
swiftc -sanitize=fuzzer,address -use-ld=lld "$build"/obj-cli/*.o -o "$build/command-line-fuzzer"

echo "== corpus: Fuzz/seeds/ and Golden/"
rm -rf "$build/corpus" "$build/artifacts"
mkdir -p "$build/artifacts"
for name in $fuzzers; do
  mkdir -p "$build/corpus/$name"
  cp Fuzz/seeds/"$name"/* "$build/corpus/$name/"
done
copy_golden() { # copy_golden SUFFIX KIND
  local count=0
  while IFS= read -r file; do
    count=$((count + 1))
    cp "$file" "$build/corpus/$2/golden-$count-$(basename "$file")"
  done < <(find Golden -name "*$1" | LC_ALL=C sort)
}
copy_golden .scenario.json scenario
copy_golden .report.json report
OBSERVER_HARNESS_TRACE_SEEDS="$build/corpus/trace" "$build/trace-fuzzer" Golden
for name in $fuzzers; do echo "$name: $(find "$build/corpus/$name" -type f | wc -l | tr -d ' ') seeds"; done

echo "== fuzzing for ${seconds}s each (per input: ${input_seconds}s, ${input_rss_mb} MiB)"
run_fuzzer() {
  local name=$1
  # -max_len: larger than any committed seed, so mutations can grow (Golden
  # seeds beyond it are cut, which is itself a hostile input).
  "$build/$name-fuzzer" "$build/corpus/$name" \
    -max_total_time="$seconds" -timeout="$input_seconds" \
    -rss_limit_mb="$input_rss_mb" -malloc_limit_mb="$input_rss_mb" -max_len=16384 \
    -dict="Fuzz/$name.dict" -artifact_prefix="$build/artifacts/$name-" -print_final_stats=1 \
    > "$build/$name.log" 2>&1
}
status=0
pids=""
for name in $fuzzers; do
  run_fuzzer "$name" &
  pids="$pids $!"
done
for pid in $pids; do wait "$pid" || status=1; done

for name in $fuzzers; do
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$build/$name.log" | grep -o '[0-9]*$' || echo "?")
  echo "$name: $runs executions (log: $build/$name.log)"
done
findings=$(find "$build/artifacts" -type f | LC_ALL=C sort)
if [ -n "$findings" ] || [ "$status" -ne 0 ]; then
  for name in $fuzzers; do
    grep -E -A3 '^==[0-9]+==.*(ERROR|WARNING)|^(SUMMARY|Fatal error|Test unit written)|ALARM' "$build/$name.log" || true
  done
  echo "error: the fuzzers found these inputs:" >&2
  for file in $findings; do echo "  $file" >&2; done
  exit 1
fi
echo "no findings"
