#!/bin/sh
# Usage: fuzz/run.sh [SECONDS] — replays every saved input of every fuzz target (built by
# fuzz/build.sh), then runs each target for SECONDS (default 300), one after the other, and
# prints the executions each reached.
#
# Each target starts from its corpus in the repository, fuzz/corpus/<target>/ (read only), and
# keeps what it finds in .build/fuzz/corpus/<target>/ for the next run. A crash leaves its
# input in .build/fuzz/crashes/<target>/ and makes the script fail: reproduce it with
# `.build/fuzz/<target> <file>`, fix the library, add a regression test, and copy the input
# into fuzz/corpus/<target>/.
#
# The replay comes first and runs each saved input once (-runs=0): the repository's corpus,
# what earlier runs kept and the crashes they found. So a known crash fails every pass, not
# only the passes whose few seconds of search happen to meet it again.
set -eu
cd "$(dirname "$0")/.."

SECONDS_EACH=${1:-300}
OUT=.build/fuzz
TARGETS=${FUZZ_TARGETS:-"desktop-entry exec-command-line url-template x-callback catalog web-url json link-pattern profiles-ini profile-groups site-rules clean-links mimeapps-list hook-output http-validator process-files shorteners scheme-cache display-text window-systems mime-globs mime-magic history"}
failed=""

# run TARGET LOG ARGUMENTS...: the target on its corpora with libFuzzer's ARGUMENTS (flags, and
# more inputs), its output in LOG.
# LeakSanitizer is off: the Swift runtime keeps metadata caches for the process's life.
# The Swift backtracer is off: it trips over AddressSanitizer, and libFuzzer reports crashes.
run() {
    target=$1
    log=$2
    shift 2
    ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$OUT/$target" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$OUT/crashes/$target/" "$@" "$OUT/corpus/$target" "fuzz/corpus/$target" >"$log" 2>&1
}

for target in $TARGETS; do
    mkdir -p "$OUT/corpus/$target" "$OUT/crashes/$target"
    log="$OUT/$target.replay.log"
    if run "$target" "$log" -runs=0 "$OUT/crashes/$target"; then
        inputs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        echo "fuzz: $target: ${inputs:-?} saved inputs replayed: ok"
    else
        echo "fuzz: $target: a saved input crashes (see $log and $OUT/crashes/$target/)"
        failed="$failed $target"
    fi
done

for target in $TARGETS; do
    case " $failed " in *" $target "*) continue ;; esac
    dictionary=""
    [ -f "fuzz/dictionaries/$target.dict" ] && dictionary="-dict=fuzz/dictionaries/$target.dict"
    log="$OUT/$target.log"
    # shellcheck disable=SC2086 # an empty $dictionary must vanish
    if run "$target" "$log" -max_total_time="$SECONDS_EACH" $dictionary; then
        result="ok"
    else
        result="CRASH (see $log and $OUT/crashes/$target/)"
        failed="$failed $target"
    fi
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz: $target: ${executions:-?} executions in ${SECONDS_EACH} s: $result"
done

if [ -n "$failed" ]; then
    echo "fuzz: crashes in:$failed" >&2
    exit 1
fi
