#!/usr/bin/env python3
"""Turns what bench/run.sh measured into the table it prints and bench/RESULTS.md."""

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess

TARGETS = {
    "url_gio": 1.0,        # choosy url / gio mime, at the largest N
    "url_xdg": 0.35,       # choosy url / xdg-mime query default, at the largest N
    "scaling": 1.3,        # choosy url at the largest N / at the smallest
    "rss_mb": 25.0,        # peak RSS of any choosy command measured
    "complete_url": 1.0,   # choosy __complete / choosy url
    "cold_gio": 1.0,       # choosy url without its cache / gio mime, wall and CPU, at the largest N
    "cold_gio_small": 1.2, # the same at every smaller N
    "sources": 1.05,       # choosy handle with 50 rules by source / without, CPU and instructions, every N
}


def medians(paths):
    """Per command, the median (ms) of its times pooled over every round, and the count."""
    pooled = {}
    for path in paths:
        with open(path) as f:
            for result in json.load(f)["results"]:
                pooled.setdefault(result["command"], []).extend(result["times"])
    return {command: statistics.median(times) * 1000 for command, times in pooled.items()}, \
        max((len(times) for times in pooled.values()), default=0)


def facts(path):
    values = {}
    with open(path) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            values[key] = value
    return values


def machine():
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    def output(*command):
        try:
            return subprocess.run(command, capture_output=True, text=True).stdout.strip()
        except OSError:
            return "?"
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "nproc": output("nproc"),
        "cpu": cpu,
        "kernel": platform.release(),
        "load": " ".join(open("/proc/loadavg").read().split()[:3]),
        "hyperfine": output("hyperfine", "--version"),
        "gio": output("dpkg-query", "-W", "-f=${Version}", "libglib2.0-bin"),
        "xdg-utils": output("dpkg-query", "-W", "-f=${Version}", "xdg-utils"),
        "commit": commit(),
    }


def commit():
    """The checked-out commit, `-dirty` when files other than this report differ from it."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    def git(*arguments):
        try:
            return subprocess.run(["git", "-C", root, *arguments], capture_output=True, text=True).stdout.strip()
        except OSError:
            return ""
    head = git("rev-parse", "--short", "HEAD") or "?"
    changed = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)bench/RESULTS.md")
    return head + ("-dirty" if changed else "")


def verdict(ok):
    return "**met**" if ok else "**MISSED**"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    parser.add_argument("--sizes", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--rounds", required=True, type=int)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split()]
    rounds = range(1, args.rounds + 1)
    runs = {}
    for n in sizes:
        runs[n], run_count = medians([os.path.join(args.work, f"hyperfine-{n}-{r}.json") for r in rounds])
    found = {n: facts(os.path.join(args.work, f"facts-{n}")) for n in sizes}
    with open(os.path.join(args.work, "cold.json")) as f:
        cold = json.load(f)
    cold_wall = {name: statistics.median(times["wall"]) * 1000 for name, times in cold.items()}
    cold_cpu = {name: statistics.median(times["cpu"]) * 1000 for name, times in cold.items()}
    cold_runs = min(len(times["wall"]) for times in cold.values())
    with open(os.path.join(args.work, "sources.json")) as f:
        by_source = json.load(f)
    source_cpu = {name: statistics.median(times["cpu"]) * 1000 for name, times in by_source.items()}
    source_wall = {name: statistics.median(times["wall"]) * 1000 for name, times in by_source.items()}
    source_runs = min(len(times["wall"]) for times in by_source.values())
    with open(os.path.join(args.work, "scaling.json")) as f:
        interleaved = json.load(f)
    scaling = {name: statistics.median(times["wall"]) * 1000 for name, times in interleaved.items()}
    scaling_cpu = {name: statistics.median(times["cpu"]) * 1000 for name, times in interleaved.items()}
    scaling_runs = min(len(times["wall"]) for times in interleaved.values())
    about = machine()

    def ms(value):
        return "—" if value is None else f"{value:.1f}"

    def ratio(a, b):
        return None if a is None or b is None else a / b

    def fmt(value):
        return "—" if value is None else f"{value:.2f}×"

    lines = []
    lines.append("| N entries | choosy url | choosy open --dry-run | choosy handle --dry-run | choosy __complete | gio mime "
                 "| xdg-mime query default | url ÷ gio | url ÷ xdg-mime | handle ÷ gio | __complete ÷ url |")
    lines.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sizes:
        m = runs[n]
        url, complete, handle = m.get("choosy url"), m.get("choosy __complete"), m.get("choosy handle --dry-run")
        lines.append(
            f"| {n:,} | {ms(url)} | {ms(m.get('choosy open --dry-run'))} | {ms(handle)} | "
            f"{ms(complete) if complete is not None else found[n].get('complete', '?')} | "
            f"{ms(m.get('gio mime'))} | {ms(m.get('xdg-mime query default'))} | {fmt(ratio(url, m.get('gio mime')))} | "
            f"{fmt(ratio(url, m.get('xdg-mime query default')))} | {fmt(ratio(handle, m.get('gio mime')))} | {fmt(ratio(complete, url))} |"
        )
    table = "\n".join(lines)
    def paired_table(header, wall, cpu, first, second, counts):
        """A table of two commands timed interleaved, per size: the wall and CPU medians of
        each, the first ÷ the second in both, then the first's instructions and ÷ the
        second's; and per size those three ratios."""
        lines = ["| N entries | " + " | ".join(header) + " |", "|---:|" + "---:|" * len(header)]
        ratios = {}
        for n in sizes:
            a, b = first(n), second(n)
            count, other = counts(n)
            ratios[n] = (ratio(wall.get(a), wall.get(b)), ratio(cpu.get(a), cpu.get(b)), ratio(count, other))
            lines.append(f"| {n:,} | {ms(wall.get(a))} | {ms(cpu.get(a))} | {ms(wall.get(b))} | {ms(cpu.get(b))} | "
                         f"{fmt(ratios[n][0])} | {fmt(ratios[n][1])} | {'—' if count is None else f'{count:,}'} | {fmt(ratios[n][2])} |")
        return "\n".join(lines), ratios

    def instructions(n, what="url"):
        value = found[n].get(f"instr_{what}")
        return int(value) if value else None

    cold_table, cold_ratios = paired_table(
        ["choosy url, no cache: wall", "CPU", "gio mime: wall", "CPU", "÷ gio, wall", "÷ gio, CPU",
         "instructions (callgrind), no cache", "÷ with its cache"],
        cold_wall, cold_cpu, lambda n: f"choosy url, cold, N={n}", lambda n: f"gio mime, N={n}",
        lambda n: (instructions(n, "cold"), instructions(n, "url")))

    small, large = sizes[0], sizes[-1]
    scale_small, scale_large = scaling.get(f"choosy url, N={small}"), scaling.get(f"choosy url, N={large}")
    scaling_lines = [f"| N entries | wall, median ms | ÷ N={small} | CPU (user+sys), median ms | ÷ N={small} "
                     f"| instructions (callgrind) | ÷ N={small} |",
                     "|---:|---:|---:|---:|---:|---:|---:|"]
    cpu_small = scaling_cpu.get(f"choosy url, N={small}")
    for n in sizes:
        value, cpu = scaling.get(f"choosy url, N={n}"), scaling_cpu.get(f"choosy url, N={n}")
        count = instructions(n)
        scaling_lines.append(f"| {n:,} | {ms(value)} | {fmt(ratio(value, scale_small))} | {ms(cpu)} | {fmt(ratio(cpu, cpu_small))} | "
                             f"{'—' if count is None else f'{count:,}'} | {fmt(ratio(count, instructions(small)))} |")

    commands = [("url", "url"), ("open", "open --dry-run"), ("handle", "handle --dry-run"), ("complete", "__complete")]
    instruction_lines = ["| N entries | " + " | ".join(f"choosy {label}" for _, label in commands) + " |",
                         "|---:|" + "---:|" * len(commands)]
    for n in sizes:
        counts = [instructions(n, what) for what, _ in commands]
        instruction_lines.append(f"| {n:,} | " + " | ".join("—" if c is None else f"{c:,}" for c in counts) + " |")

    rss_keys = [key for key in ("rss_url", "rss_open", "rss_handle", "rss_complete") if key in found[large]]
    rss_max = max(int(found[n][key]) for n in sizes for key in rss_keys if key in found[n]) / 1024
    other_lines = ["| N | peak RSS url / open / handle / __complete (MB) | gio mime (MB) | files opened by url (ok; .desktop) "
                   "| by open --dry-run | by handle --dry-run | by __complete | processes started (url / open / handle / __complete) "
                   "| libcurl (url / open / handle / __complete) |",
                   "|---:|---|---:|---|---|---|---|---|---|"]
    for n in sizes:
        f = found[n]
        def mb(key):
            return f"{int(f[key]) / 1024:.1f}" if key in f else "—"
        def opens(what):
            key = f"opens_{what}"
            return f"{f[key]} ({f[f'opens_ok_{what}']}; {f[f'opens_desktop_{what}']})" if key in f else "—"
        other_lines.append(
            f"| {n:,} | {mb('rss_url')} / {mb('rss_open')} / {mb('rss_handle')} / {mb('rss_complete')} | {mb('rss_gio')} | "
            f"{opens('url')} | {opens('open')} | {opens('handle')} | {opens('complete')} | "
            f"{' / '.join(f.get(f'procs_{what}', '—') for what, _ in commands)} | "
            f"{' / '.join(f.get(f'curl_{what}', '—') for what, _ in commands)} |"
        )

    source_table, source_ratios = paired_table(
        ["50 source rules: wall", "CPU", "without: wall", "CPU", "÷, wall", "÷, CPU", "instructions (callgrind), 50 source rules",
         "÷ without"],
        source_wall, source_cpu, lambda n: f"choosy handle, 50 source rules, N={n}", lambda n: f"choosy handle, N={n}",
        lambda n: (instructions(n, "handle_sources"), instructions(n, "handle")))

    m = runs[large]
    url_gio = ratio(m.get("choosy url"), m.get("gio mime"))
    url_xdg = ratio(m.get("choosy url"), m.get("xdg-mime query default"))
    scale = ratio(scale_large, scale_small)
    curl_loaded = any(v == "loaded" for f in found.values() for k, v in f.items() if k.startswith("curl_"))
    complete_ratios = [ratio(runs[n].get("choosy __complete"), runs[n].get("choosy url")) for n in sizes]
    complete_state = found[large].get("complete", "?")
    targets = [
        f"| choosy url ÷ gio mime, N={large:,} | ≤ {TARGETS['url_gio']:.2f}× | {fmt(url_gio)} | {verdict(url_gio is not None and url_gio <= TARGETS['url_gio'])} |",
        f"| choosy url ÷ xdg-mime query default, N={large:,} | ≤ {TARGETS['url_xdg']:.2f}× | {fmt(url_xdg)} | {verdict(url_xdg is not None and url_xdg <= TARGETS['url_xdg'])} |",
        f"| choosy url at N={large:,} ÷ at N={small:,} (interleaved, wall) | ≤ {TARGETS['scaling']:.2f}× | {fmt(scale)} | {verdict(scale is not None and scale <= TARGETS['scaling'])} |",
        f"| peak RSS of choosy | ≤ {TARGETS['rss_mb']:.0f} MB | {rss_max:.1f} MB | {verdict(rss_max <= TARGETS['rss_mb'])} |",
        f"| libcurl loaded without network | never | {'loaded' if curl_loaded else 'never'} | {verdict(not curl_loaded)} |",
    ]
    for n in sizes:
        goal = TARGETS["cold_gio"] if n == large else TARGETS["cold_gio_small"]
        worst = None if None in cold_ratios[n][:2] else max(cold_ratios[n][:2])
        targets.append(f"| choosy url without its cache ÷ gio mime, N={n:,} (interleaved, wall and CPU) | ≤ {goal:.2f}× | "
                       f"{fmt(cold_ratios[n][0])} / {fmt(cold_ratios[n][1])} | {verdict(worst is not None and worst <= goal)} |")
    for n in sizes:
        known = [r for r in source_ratios[n][1:] if r is not None]
        targets.append(f"| choosy handle with 50 rules by source ÷ without, N={n:,} (interleaved CPU; instructions) | "
                       f"≤ {TARGETS['sources']:.2f}× | {fmt(source_ratios[n][1])} / {fmt(source_ratios[n][2])} | "
                       f"{verdict(bool(known) and max(known) <= TARGETS['sources'])} |")
    if complete_state == "ok" and all(r is not None for r in complete_ratios):
        worst = max(complete_ratios)
        targets.append(f"| choosy __complete ÷ choosy url (worst N) | ≤ {TARGETS['complete_url']:.2f}× | {fmt(worst)} | {verdict(worst <= TARGETS['complete_url'])} |")
    else:
        reason = "missing: `__complete` is not built yet" if complete_state == "missing" else f"not measured ({complete_state})"
        targets.append(f"| choosy __complete ÷ choosy url | ≤ {TARGETS['complete_url']:.2f}× | — | {reason} |")

    text = f"""# Benchmark results

Latest `make bench` ({about['date']}, choosy at commit {about['commit']}, release build). Machine: {about['nproc']} CPUs ({about['cpu']}), Linux {about['kernel']},
load average {about['load']} when the report was written (other builds share the machine, so absolute times are
noisy; ratios come from the same hyperfine runs). {about['hyperfine']}, gio {about['gio']}, xdg-utils {about['xdg-utils']}.
Each hyperfine run was repeated in {args.rounds} rounds (sizes one after the other); the medians, in milliseconds, are
of the {run_count} times of each command pooled over the rounds.

Each tree is its own HOME and XDG directories (`bench/make-tree.py`): `mimeapps.list` makes firefox.desktop the https
default; choosy's default browser is firefox; a user catalog file adds Lagrange to the browser type by its `gemini:`
scheme only (no `desktop_ids`), so that every choosy command below looks a scheme up in choosy's desktop index, whose
cache is warm. Commands:
`choosy url Browser browse url=https://example.org --offline`,
`choosy open Browser browse url=https://example.org --offline --dry-run`,
`choosy handle https://example.org/some/page --offline --dry-run` (a link click: the link's host is read as a browser reads it),
`choosy __complete open Tw` (timed when it exits 0 and names Twitter),
`gio mime x-scheme-handler/https`, `xdg-mime query default x-scheme-handler/https`.

## Medians (ms) and ratios

{table}

## The cold path

The first command after desktop entries were installed or removed finds no valid desktop index in
`~/.cache/choosy/` and rebuilds it: from each directory's `mimeinfo.cache` when that is no older than
the directory, else by parsing the entries that may name a scheme handler. Each choosy run below starts with that cache deleted; {cold_runs} runs of each command,
every size and gio interleaved (`bench/interleave.py --remove`); wall time from spawn to exit, CPU
time from `wait4`.

{cold_table}

## choosy's own scaling

`choosy url` on every tree, {scaling_runs} runs each, interleaved (each iteration runs every size once, in a new
random order, so that load from other processes falls on all sizes alike; `bench/interleave.py`); wall time from
spawn to exit, CPU time from `wait4`. Instructions: one run under callgrind.

{chr(10).join(scaling_lines)}

## Rules by source app

`choosy handle` as above, with the tree's configuration and with the same plus 50 rules by source
(`--from` entries of the tree, every tenth for `*`; `env-sources`, with a cache directory of its own,
so that each configuration reads rules.json through its own site rule index): from no app they
name, so choosy reads each ancestor's `/proc` files and looks its program up in the map of the
entries' programs, and opens the default browser all the same. {source_runs} runs of each, every size interleaved
(`bench/interleave.py`); instructions: one run under callgrind.

{source_table}

## Instructions

Each command once under callgrind (`valgrind --tool=callgrind`, on a copy of the binary without debug information),
with the tree's variables over those of the run: the count is repeatable where times are not, so later changes compare against it.

{chr(10).join(instruction_lines)}

## Resources

{chr(10).join(other_lines)}

Files opened: every `open`/`openat` call (`strace -f`), then the successful ones and the `.desktop` files among them.
Processes started: `clone`, `clone3`, `fork`, `vfork` and `execve` calls besides choosy's own `execve`. libcurl:
`LD_DEBUG=files` and the `openat` trace.

## Targets

| Target | Goal | Measured | |
|---|---|---|---|
{chr(10).join(targets)}
"""
    with open(args.output, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
