#!/usr/bin/env python3
"""What keeping the history costs `choosy handle`, and what `choosy history` takes
(doc/configuration.md, "History").
Usage: bench/history.py CHOOSY [--sizes 40,4000] [--append RESULTS.md]

On trees of bench/make-tree.py (Firefox the browser type's default, its program a stub that
exits at once): instructions (callgrind, one run each; choosy's own, not the app's) of
`handle https://example.org/some/page --offline`, which starts the app, with `"history": false`
in config.json, and with `"history": true`, once while it holds 50 links (the link is appended)
and once while it holds 100 (the file is replaced by the newest 100); then the wall time of
`history` listing 100 links (the median of 30 runs, to /dev/null). The targets (issue 42):
keeping the link adds at most 3% of `handle`'s instructions; `history` of 100 links under 5 ms.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from benchlib import instructions, ready_tree, stripped_copy

LINK = "https://example.org/some/page"
ADDED = 0.03
LISTING_MS = 5.0


def write_history(path, count):
    """`count` links as choosy keeps them, oldest first."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        for number in range(count):
            entry = {"time": 1_800_000_000 + number, "command": "handle", "link": f"https://example.org/page/{number}?q=a+b",
                     "type": "browser", "choice": "firefox", "outcome": "opened", "source": "org.gnome.Evolution.desktop"}
            f.write(json.dumps(entry, separators=(",", ":")) + "\n")
    os.chmod(path, 0o600)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("choosy")
    parser.add_argument("--sizes", default="40,4000")
    parser.add_argument("--append")
    arguments = parser.parse_args()
    for tool in ("valgrind", "objcopy"):
        if shutil.which(tool) is None:
            sys.exit(f"history: {tool} is not installed (make bench installs it)")
    rows, met = [], True
    with tempfile.TemporaryDirectory(prefix="choosy-history-") as work:
        choosy = stripped_copy(arguments.choosy, work)
        for size in [int(n) for n in arguments.sizes.split(",")]:
            _, environment = ready_tree(size, work, choosy)
            environment.setdefault("XDG_STATE_HOME", os.path.join(environment["HOME"], ".local", "state"))
            history = os.path.join(environment["XDG_STATE_HOME"], "choosy", "history")
            config = os.path.join(environment["XDG_CONFIG_HOME"], "choosy", "config.json")
            handle = [choosy, "handle", LINK, "--offline"]
            answer = subprocess.run(handle, env=environment, capture_output=True, text=True)
            if answer.returncode != 0:
                sys.exit(f"history: handle (N={size}) failed: {answer.stderr!r}")
            with open(config, "w") as f:
                f.write('{"history": false}\n')
            off = instructions(handle, environment, "history")
            if os.path.exists(history):
                sys.exit("history: \"history\": false left the file")
            # The same config file, the history on: only keeping the link differs.
            with open(config, "w") as f:
                f.write('{"history": true}\n')
            counts = {}
            for held in (50, 100):
                write_history(history, held)
                counts[held] = instructions(handle, environment, "history")
                with open(history) as f:
                    lines = f.read().splitlines()
                if len(lines) != min(held + 1, 100) or LINK not in lines[-1]:
                    sys.exit(f"history: handle kept {len(lines)} lines, the last {lines[-1]!r}")
            write_history(history, 100)
            listing = [choosy, "history"]
            times = []
            for _ in range(30):
                start = time.perf_counter()
                subprocess.run(listing, env=environment, stdout=subprocess.DEVNULL, check=True)
                times.append((time.perf_counter() - start) * 1000)
            listed = subprocess.run(listing, env=environment, capture_output=True, text=True, check=True).stdout
            if len(listed.splitlines()) != 100:
                sys.exit(f"history: history listed {len(listed.splitlines())} lines")
            median = statistics.median(times)
            added = {held: counts[held] / off - 1 for held in counts}
            ok = all(value <= ADDED for value in added.values()) and median < LISTING_MS
            met = met and ok
            rows.append(f"| {size:,} | {off:,} | {counts[50]:,} (+{added[50] * 100:.1f}%) | {counts[100]:,} "
                        f"(+{added[100] * 100:.1f}%) | {median:.1f} | {'**met**' if ok else '**MISSED**'} |")
    lines = ["| N entries | handle, history off: instructions | history of 50: appended | history of 100: replaced "
             "| `history` of 100, ms | |", "|---:|---:|---:|---:|---:|---|"] + rows
    print("\n".join(lines))
    if arguments.append:
        with open(arguments.append, "a") as results:
            results.write("\n".join(["", "## History (bench/history.py)", "",
                                     "`handle LINK --offline` starting the default browser (a stub), its instructions by "
                                     "callgrind with `\"history\": false` and with the history on (appending to 50 links, "
                                     "replacing 100); the wall time of `history` listing 100 links, median of 30. Targets: "
                                     "at most +3% instructions; under 5 ms.", ""] + lines) + "\n")
    if not met:
        print("history: a target was missed", file=sys.stderr)


if __name__ == "__main__":
    main()
