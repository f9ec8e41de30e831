#!/usr/bin/env python3
"""How choosy's cost grows with ten times more desktop entries (doc/security.md: at most
n log n; 10 times the entries may cost at most 15 times as much), against gio mime on the
same trees. Usage: bench/scale.py CHOOSY [--runs N] [--sizes 4000,40000] [--work DIR] [--append RESULTS.md]

Builds (bench/make-tree.py, then update-desktop-database, as `make bench` does) a tree of each
size, then times, run by run interleaved across sizes and commands (bench/interleave.py):
- `choosy url` with its desktop index removed before each run (the cold rebuild: the first
  command after entries were installed), and `gio mime x-scheme-handler/https`;
- `choosy handle --dry-run` with the tree's 50 rules by source app and the map of the entries'
  programs removed before each run (the first link whose source is looked for after entries
  changed: every entry is parsed);
- `choosy url` and `choosy handle --dry-run` with warm caches.
It prints, and with --append adds to RESULTS.md, the medians (wall and CPU), the cold index
÷ gio mime at each size, and each command's time at the largest size ÷ that at the smallest.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
URL = ["url", "Browser", "browse", "url=https://example.org", "--offline"]
HANDLE = ["handle", "https://example.org/some/page", "--offline", "--dry-run"]


def tree_environment(tree, suffix=""):
    with open(os.path.join(tree, f"env{suffix}.args")) as f:
        return dict(word.split("=", 1) for word in shlex.split(f.read()))


def make_tree(n, tree, choosy):
    subprocess.run([sys.executable, os.path.join(HERE, "make-tree.py"), str(n), tree], check=True)
    with open(os.path.join(tree, "env")) as f:
        directories = next(line for line in f if line.startswith("APPLICATIONS_DIRS="))
    for directory in shlex.split(directories.split("=", 1)[1])[0].split():
        subprocess.run(["update-desktop-database", directory], check=True)
    # An index built from directories changed in the last 2 s is not saved (their mtime could
    # still change unseen): let them settle, then warm every cache.
    time.sleep(2.1)
    for suffix in ("", "-sources"):
        environment = tree_environment(tree, suffix)
        for command in (["--offline", "default", "browser", "firefox"], URL, HANDLE):
            subprocess.run([choosy] + command, env=environment, stdout=subprocess.DEVNULL, check=True)
        # A dry run saves no cache: one real click (a stub firefox) saves the site rule index
        # and, with rules by source, the map of the entries' programs.
        subprocess.run([choosy] + HANDLE[:-1], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       timeout=120)
    # The answers the timings stand for.
    answer = subprocess.run([choosy] + HANDLE, env=tree_environment(tree), capture_output=True, text=True, check=True).stdout
    if answer != "firefox https://example.org/some/page\n":
        sys.exit(f"scale: N={n}: choosy handle printed {answer!r}")
    gio = subprocess.run(["gio", "mime", "x-scheme-handler/https"], env=tree_environment(tree), capture_output=True, text=True)
    if ": firefox.desktop" not in gio.stdout.splitlines()[0]:
        sys.exit(f"scale: N={n}: gio mime does not name firefox.desktop: {gio.stdout[:200]!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("choosy")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--sizes", default="4000,40000")
    parser.add_argument("--work", default=os.path.join(HERE, "work"))
    parser.add_argument("--append")
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    choosy = os.path.abspath(options.choosy)

    specs = []
    for n in sizes:
        tree = os.path.join(options.work, f"scale-{n}")
        make_tree(n, tree, choosy)
        cache = os.path.join(tree, "home/.cache/choosy/desktop-entries.cache")
        programs = os.path.join(tree, "home/.cache-sources/choosy/desktop-programs.cache")
        args, sources = os.path.join(tree, "env.args"), os.path.join(tree, "env-sources.args")
        specs += [
            [f"url, cold index, N={n}", args, f"--remove={cache}", "--", choosy] + URL,
            [f"gio mime, N={n}", args, "--", "/usr/bin/gio", "mime", "x-scheme-handler/https"],
            [f"handle, source rules, cold program map, N={n}", sources, f"--remove={programs}", "--", choosy] + HANDLE,
            [f"url, N={n}", args, "--", choosy] + URL,
            [f"handle, N={n}", args, "--", choosy] + HANDLE,
        ]
    output = os.path.join(options.work, "scale.json")
    argv = [sys.executable, os.path.join(HERE, "interleave.py"), "--runs", str(options.runs), "--warmup", "2", "--output", output]
    for index, spec in enumerate(specs):
        argv += ([";;"] if index else []) + spec
    subprocess.run(argv, check=True)
    with open(output) as f:
        results = json.load(f)

    def median(name, kind):
        return statistics.median(results[name][kind]) * 1000

    small, large = sizes[0], sizes[-1]
    lines = ["", "## Ten times the entries (bench/scale.py)", "",
             f"Trees of {small:,} and {large:,} entries (bench/make-tree.py, update-desktop-database); {options.runs} runs of each "
             "command, every size and command interleaved (bench/interleave.py); medians in ms, wall / CPU. The cold index: "
             "choosy's desktop index removed before each run of `choosy url`, the first command after entries were "
             "installed (doc/security.md: at most n log n, so 10 times the entries cost at most 15 times as much, and no "
             "slower than `gio mime` on the same tree). The cold program map: `handle` with the tree's 50 rules by "
             "source app and the map of the entries' programs removed before each run.", "",
             f"| command | N={small:,} | N={large:,} | ÷, wall | ÷, CPU |", "|---|---:|---:|---:|---:|"]
    for command in ("url, cold index", "gio mime", "handle, source rules, cold program map", "url", "handle"):
        cells = []
        for n in (small, large):
            cells.append(f"{median(f'{command}, N={n}', 'wall'):.1f} / {median(f'{command}, N={n}', 'cpu'):.1f}")
        wall = median(f"{command}, N={large}", "wall") / median(f"{command}, N={small}", "wall")
        cpu = median(f"{command}, N={large}", "cpu") / median(f"{command}, N={small}", "cpu")
        lines.append(f"| `{command}` | {cells[0]} | {cells[1]} | {wall:.2f}× | {cpu:.2f}× |")
    lines += ["", "| N entries | cold index ÷ gio mime, wall | ÷ gio mime, CPU |", "|---:|---:|---:|"]
    for n in sizes:
        wall = median(f"url, cold index, N={n}", "wall") / median(f"gio mime, N={n}", "wall")
        cpu = median(f"url, cold index, N={n}", "cpu") / median(f"gio mime, N={n}", "cpu")
        lines.append(f"| {n:,} | {wall:.2f}× | {cpu:.2f}× |")

    def target(name, goal, measured, met):
        lines.append(f"| {name} | {goal} | {measured} | {'**met**' if met else '**MISSED**'} |")

    lines += ["", "| Target | Goal | Measured (wall / CPU) | |", "|---|---|---|---|"]
    for command in ("url, cold index", "handle, source rules, cold program map", "url", "handle"):
        ratios = [median(f"{command}, N={large}", kind) / median(f"{command}, N={small}", kind) for kind in ("wall", "cpu")]
        target(f"`{command}` at N={large:,} ÷ at N={small:,}", "≤ 15×", " / ".join(f"{r:.2f}×" for r in ratios), max(ratios) <= 15)
    ratios = [median(f"url, cold index, N={large}", kind) / median(f"gio mime, N={large}", kind) for kind in ("wall", "cpu")]
    target(f"cold index ÷ gio mime at N={large:,}", "≤ 1.00×", " / ".join(f"{r:.2f}×" for r in ratios), max(ratios) <= 1)
    text = "\n".join(lines) + "\n"
    print(text)
    if options.append:
        with open(options.append, "a") as f:
            f.write(text)


if __name__ == "__main__":
    main()
