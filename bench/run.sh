#!/bin/sh
# `make bench`: choosy side by side with what users have instead (gio mime, xdg-mime), on
# generated, isolated XDG trees of 40, 400 and 4,000 desktop entries. Prints a table of
# medians and ratios and writes it to bench/RESULTS.md.
#
# The machine is shared (other builds run at the same time), so every hyperfine run is
# repeated in rounds, one size after the other, and the times of all rounds are pooled: each
# command is then sampled in several windows, and a burst of load in one of them moves a
# median much less.
#
# Environment: CHOOSY (the binary, default .build/release/choosy), BENCH_SIZES ("40 400 4000"),
# BENCH_ROUNDS (default 5), BENCH_RUNS (hyperfine runs per command and round, default 40),
# BENCH_WARMUP (per round, default 5), BENCH_SCALING_RUNS (interleaved runs of choosy url per
# size, default 300), BENCH_COLD_RUNS (interleaved cold runs of choosy url and gio mime per size,
# default 60), BENCH_FRAME_RUNS (interleaved runs per picker for the first frame, default 30),
# BENCH_SCALE_SIZES and BENCH_SCALE_RUNS (bench/scale.py's trees, default "4000,40000", and runs, 20),
# BENCH_RUNNING_RUNS (bench/running.py's interleaved runs of each, default 100),
# BENCH_COMPLETE_ARGS (the completion request, default "__complete open Tw"; it counts as
# working when it exits 0 and names Twitter), BENCH_RESULTS (default bench/RESULTS.md).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
choosy=${CHOOSY:-$root/.build/release/choosy}
sizes=${BENCH_SIZES:-40 400 4000}
rounds=${BENCH_ROUNDS:-5}
runs=${BENCH_RUNS:-40}
warmup=${BENCH_WARMUP:-5}
scaling_runs=${BENCH_SCALING_RUNS:-300}
cold_runs=${BENCH_COLD_RUNS:-60}
results=${BENCH_RESULTS:-$root/bench/RESULTS.md}
work=$root/bench/work

for tool in hyperfine gio xdg-mime update-desktop-database strace python3 /usr/bin/time Xvfb rofi zenity sway fuzzel wtype; do
    command -v "$tool" >/dev/null 2>&1 || { echo "bench: $tool is missing (make bench installs it)" >&2; exit 1; }
done
[ -x "$choosy" ] || { echo "bench: no choosy binary at $choosy (run make build)" >&2; exit 1; }
# The commands run in each tree, on a copy: what users run is installed (copied), and a binary
# straight from the linker starts measurably slower than a copy of it.
mkdir -p "$work"
[ "$choosy" -ef "$work/choosy" ] || cp "$choosy" "$work/choosy"
choosy=$work/choosy

url_args="url Browser browse url=https://example.org --offline"
open_args="open Browser browse url=https://example.org --offline --dry-run"
# A link click: handle reads the link as a browser does (its host) and the 50 site rules of
# the tree (none is example.org's) before it opens it.
handle_args="handle https://example.org/some/page --offline --dry-run"
complete_args=${BENCH_COMPLETE_ARGS:-__complete open Tw}
expected_argv="firefox https://example.org"
expected_handle_argv="firefox https://example.org/some/page"

fail() { echo "bench: $*" >&2; exit 1; }

# 1. The trees. update-desktop-database writes mimeinfo.cache (what gio and xdg-mime read).
rm -f "$work/choosy-nodebug"
for n in $sizes; do
    tree=$work/tree-$n
    python3 "$root/bench/make-tree.py" "$n" "$tree"
    # shellcheck disable=SC1091
    (. "$tree/env" && for directory in $APPLICATIONS_DIRS; do update-desktop-database "$directory"; done)
done
# choosy does not save an index built from directories changed in the last 2 s (their
# mtime could still change unseen), so let them settle before warming the caches.
sleep 2.1

# 2. Per size: warm up, check every answer, measure memory, files, processes and libcurl.
for n in $sizes; do
    tree=$work/tree-$n
    facts=$work/facts-$n
    (
        # shellcheck disable=SC1091
        . "$tree/env"
        cd "$tree"
        : > "$facts"
        fact() { printf '%s=%s\n' "$1" "$2" >> "$facts"; }

        # A default browser, and the desktop index cache.
        "$choosy" --offline default browser firefox
        [ "$("$choosy" --offline default browser)" = firefox ] || fail "N=$n: choosy default browser is not firefox"
        # shellcheck disable=SC2086
        "$choosy" $url_args > /dev/null
        [ -s "$XDG_CACHE_HOME/choosy/desktop-entries.cache" ] || fail "N=$n: choosy wrote no desktop index cache"

        # The right answers before any timing.
        # shellcheck disable=SC2086
        answer=$("$choosy" $url_args) || fail "N=$n: choosy url failed"
        [ "$answer" = "https://example.org" ] || fail "N=$n: choosy url printed '$answer'"
        # shellcheck disable=SC2086
        answer=$("$choosy" $open_args) || fail "N=$n: choosy open --dry-run failed"
        [ "$answer" = "$expected_argv" ] || fail "N=$n: choosy open --dry-run printed '$answer'"
        # shellcheck disable=SC2086
        answer=$("$choosy" $handle_args) || fail "N=$n: choosy handle --dry-run failed"
        [ "$answer" = "$expected_handle_argv" ] || fail "N=$n: choosy handle --dry-run printed '$answer'"
        # A dry run saves no cache: one real click (a stub firefox) saves the index of rules.json.
        timeout 60 "$choosy" handle https://example.org/some/page --offline > /dev/null || fail "N=$n: choosy handle failed"
        [ -s "$XDG_CACHE_HOME/choosy/site-rules.index" ] || fail "N=$n: choosy wrote no site rule index"
        # The same link with 50 rules by source besides, in their own configuration and cache:
        # from no app they name, the same answer. One real click under a parent that is no
        # shell (shells are not looked up) saves the map of the entries' programs too.
        # A command with the variables of env-sources (bench/make-tree.py), run by the subshell
        # that read them (no extra ancestor for the source to walk past).
        # shellcheck disable=SC1091
        with_sources() { (. "$tree/env-sources" && exec "$@"); }
        with_sources "$choosy" --offline default browser firefox
        # shellcheck disable=SC2086
        with_sources "$choosy" $url_args > /dev/null
        with_sources timeout 60 "$choosy" handle https://example.org/some/page --offline > /dev/null \
            || fail "N=$n: choosy handle with source rules failed"
        # shellcheck disable=SC2086
        answer=$(with_sources "$choosy" $handle_args) || fail "N=$n: choosy handle with source rules failed"
        [ "$answer" = "$expected_handle_argv" ] || fail "N=$n: choosy handle with source rules printed '$answer'"
        for file in desktop-programs.cache site-rules.index; do
            # shellcheck disable=SC2016
            [ -s "$(with_sources sh -c 'echo "$XDG_CACHE_HOME"')/choosy/$file" ] || fail "N=$n: choosy wrote no $file for the source rules"
        done
        gio mime x-scheme-handler/https | grep -q "x-scheme-handler/https.*: firefox.desktop" \
            || fail "N=$n: gio mime does not name firefox.desktop: $(gio mime x-scheme-handler/https 2>&1 | head -1)"
        answer=$(xdg-mime query default x-scheme-handler/https)
        [ "$answer" = firefox.desktop ] || fail "N=$n: xdg-mime query default printed '$answer'"
        # shellcheck disable=SC2086
        if answer=$("$choosy" $complete_args 2>&1) && printf '%s' "$answer" | grep -qi twitter; then
            fact complete ok
        elif printf '%s' "$answer" | grep -q "not built yet"; then
            fact complete missing
        else
            fact complete "wrong: $(printf '%s' "$answer" | head -1)"
        fi
        complete=$(sed -n 's/^complete=//p' "$facts")

        # Peak RSS (the largest of 5 runs), files opened, processes started, libcurl.
        peak_rss() {
            best=0
            for _ in 1 2 3 4 5; do
                kb=$(/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1)
                [ "$kb" -gt "$best" ] && best=$kb
            done
            echo "$best"
        }
        # shellcheck disable=SC2086
        fact rss_url "$(peak_rss "$choosy" $url_args)"
        # shellcheck disable=SC2086
        fact rss_open "$(peak_rss "$choosy" $open_args)"
        # shellcheck disable=SC2086
        fact rss_handle "$(peak_rss "$choosy" $handle_args)"
        fact rss_gio "$(peak_rss gio mime x-scheme-handler/https)"
        # shellcheck disable=SC2086
        [ "$complete" = ok ] && fact rss_complete "$(peak_rss "$choosy" $complete_args)"
        # Instructions (callgrind; repeatable where times are not). Valgrind cannot read the
        # toolchain's DWARF 5, so it runs a copy without debug information.
        if command -v valgrind >/dev/null 2>&1 && command -v objcopy >/dev/null 2>&1; then
            [ -x "$work/choosy-nodebug" ] || objcopy --strip-debug "$choosy" "$work/choosy-nodebug"
            # shellcheck disable=SC2086
            fact instr_cold "$(rm -f "$XDG_CACHE_HOME/choosy/desktop-entries.cache" && valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/choosy-nodebug" $url_args 2>&1 >/dev/null \
                | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')"
            for what in url open complete handle; do
                [ "$what" = complete ] && [ "$complete" != ok ] && continue
                eval "args=\$${what}_args"
                # shellcheck disable=SC2086,SC2154
                fact "instr_$what" "$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/choosy-nodebug" $args 2>&1 >/dev/null \
                    | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')"
            done
            # The same ancestors as the line above: the substitution's shell reads env-sources.
            # shellcheck disable=SC2086,SC1091
            fact instr_handle_sources "$(. "$tree/env-sources" && valgrind --tool=callgrind --callgrind-out-file=/dev/null \
                "$work/choosy-nodebug" $handle_args 2>&1 >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')"

        fi
        for what in url open complete handle; do
            [ "$what" = complete ] && [ "$complete" != ok ] && continue
            eval "args=\$${what}_args"
            # shellcheck disable=SC2086,SC2154
            strace -f -qq -e trace=openat,open -o "$work/strace-open-$what-$n" "$choosy" $args > /dev/null
            fact "opens_$what" "$(grep -c -E '^[0-9]* *open(at)?\(' "$work/strace-open-$what-$n")"
            fact "opens_ok_$what" "$(grep -E '^[0-9]* *open(at)?\(' "$work/strace-open-$what-$n" | grep -c -v -- '= -1 ')"
            fact "opens_desktop_$what" "$(grep -E '^[0-9]* *open(at)?\(' "$work/strace-open-$what-$n" | grep -v -- '= -1 ' | grep -c '\.desktop"')"
            # shellcheck disable=SC2086
            strace -f -qq -e trace=clone,clone3,fork,vfork,execve -o "$work/strace-proc-$what-$n" "$choosy" $args > /dev/null
            # The first execve is choosy itself.
            fact "procs_$what" "$(($(grep -c -E '(clone3?|v?fork|execve)\(' "$work/strace-proc-$what-$n") - 1))"
            # shellcheck disable=SC2086
            if LD_DEBUG=files "$choosy" $args 2>&1 >/dev/null | grep -q 'file=libcurl' \
                || grep -q libcurl "$work/strace-open-$what-$n"; then
                fact "curl_$what" loaded
            else
                fact "curl_$what" "not loaded"
            fi
        done
    ) || exit 1
done

# 3. Timings, in rounds. Per size, every command in one hyperfine run (no shell in between).
# Even rounds go through the sizes in reverse, so that no size is always measured first.
rm -f "$work"/hyperfine-*.json
reversed_sizes=$(for n in $sizes; do echo "$n"; done | sed -n '1!G;h;$p' | tr '\n' ' ')
round=1
while [ "$round" -le "$rounds" ]; do
    echo "bench: round $round of $rounds" >&2
    order=$sizes
    [ $((round % 2)) -eq 0 ] && order=$reversed_sizes
    for n in $order; do
        (
            # shellcheck disable=SC1091
            . "$work/tree-$n/env"
            cd "$work/tree-$n"
            set -- -n "choosy url" "$choosy $url_args" -n "choosy open --dry-run" "$choosy $open_args" \
                -n "choosy handle --dry-run" "$choosy $handle_args"
            grep -q '^complete=ok$' "$work/facts-$n" && set -- "$@" -n "choosy __complete" "$choosy $complete_args"
            hyperfine -N --style basic --warmup "$warmup" --runs "$runs" --export-json "$work/hyperfine-$n-$round.json" \
                "$@" -n "gio mime" "gio mime x-scheme-handler/https" \
                -n "xdg-mime query default" "xdg-mime query default x-scheme-handler/https" > "$work/hyperfine-$n.log" 2>&1 \
                || { cat "$work/hyperfine-$n.log" >&2; fail "N=$n: hyperfine failed"; }
        ) || exit 1
    done
    round=$((round + 1))
done

# 4. choosy's own scaling: choosy url on every tree, interleaved run by run (bench/interleave.py),
# so that load from other processes falls on every size alike.
echo "bench: choosy url across sizes, interleaved" >&2
set --
for n in $sizes; do
    [ $# -gt 0 ] && set -- "$@" ";;"
    # shellcheck disable=SC2086
    set -- "$@" "choosy url, N=$n" "$work/tree-$n/env.args" -- "$choosy" $url_args
done
python3 "$root/bench/interleave.py" --runs "$scaling_runs" --warmup "$warmup" --output "$work/scaling.json" "$@"

# 5. The cold path: choosy's desktop index cache removed before each choosy run (so it reads the
# entries to rebuild it), against gio mime, every size interleaved run by run.
echo "bench: the cold path, interleaved" >&2
set --
for n in $sizes; do
    [ $# -gt 0 ] && set -- "$@" ";;"
    # shellcheck disable=SC2086
    set -- "$@" "choosy url, cold, N=$n" "$work/tree-$n/env.args" "--remove=$work/tree-$n/home/.cache/choosy/desktop-entries.cache" \
        -- "$choosy" $url_args ";;" "gio mime, N=$n" "$work/tree-$n/env.args" -- "$(command -v gio)" mime x-scheme-handler/https
done
python3 "$root/bench/interleave.py" --runs "$cold_runs" --warmup "$warmup" --output "$work/cold.json" "$@"

# 6. handle with and without 50 rules by source, every size interleaved run by run.
echo "bench: handle with rules by source, interleaved" >&2
set --
for n in $sizes; do
    [ $# -gt 0 ] && set -- "$@" ";;"
    # shellcheck disable=SC2086
    set -- "$@" "choosy handle, N=$n" "$work/tree-$n/env.args" -- "$choosy" $handle_args ";;" \
        "choosy handle, 50 source rules, N=$n" "$work/tree-$n/env-sources.args" -- "$choosy" $handle_args
done
python3 "$root/bench/interleave.py" --runs "$scaling_runs" --warmup "$warmup" --output "$work/sources.json" "$@"

python3 "$root/bench/report.py" --work "$work" --sizes "$sizes" --rounds "$rounds" --output "$results"

# 7. Many candidates: 10× more profiles, containers and https handlers (doc/security.md).
echo "bench: many candidates" >&2
python3 "$root/bench/candidates.py" "$choosy" --append "$results"

# 7. Ten times the entries (doc/security.md, "Many candidates"): trees of 4,000 and 40,000, the
# cold index against gio mime on each.
echo "bench: ten times the entries" >&2
python3 "$root/bench/scale.py" "$choosy" --work "$work" --sizes "${BENCH_SCALE_SIZES:-4000,40000}" \
    --runs "${BENCH_SCALE_RUNS:-20}" --append "$results"

# 7. What cleaning links costs handle (doc/links-and-rules.md, "Clean links").
echo "bench: clean links" >&2
python3 "$root/bench/clean-links.py" "$choosy" --append "$results"

# 8. What a local file costs handle against a link (doc/spec-choices.md, "Local files").
echo "bench: local files" >&2
python3 "$root/bench/local-files.py" "$choosy" --append "$results"

# 9. What keeping the history costs handle, and what `history` takes (doc/configuration.md, "History").
echo "bench: history" >&2
python3 "$root/bench/history.py" "$choosy" --append "$results"

# 10. What `"running": "use"` costs a link click under a headless sway (doc/running.md).
echo "bench: running browsers" >&2
python3 "$root/bench/running.py" "$choosy" --runs "${BENCH_RUNNING_RUNS:-100}" --append "$results"

# 11. What choosy adds before a picker's first frame: rofi and zenity on Xvfb, fuzzel on a
# headless sway, against each started alone on the same lines (Debian's python3-xlib).
echo "bench: the pickers' first frame" >&2
/usr/bin/python3 "$root/bench/first-frame.py" "$choosy" --runs "${BENCH_FRAME_RUNS:-30}" --append "$results"
