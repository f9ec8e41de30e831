#!/usr/bin/env python3
"""What cleaning links costs `choosy handle` (doc/links-and-rules.md, "Clean links").
Usage: bench/clean-links.py CHOOSY [--runs N] [--append RESULTS.md]

Lays CHOOSY out as an installation (PREFIX/bin/choosy with the rules of clean/ in
PREFIX/share/choosy/clean/) in a temporary home with one browser, then measures
`handle LINK --offline --dry-run` with cleaning off, with `--clean` on a link with trackers,
with `--clean` on a link without, and with `--clean` with the parsed rules removed from the
cache before each run (what the first command after the rules changed pays): CPU time (user +
system, per run, the median of N runs interleaved) and instructions (callgrind, one run each,
when valgrind is installed). It prints, and with --append adds to RESULTS.md, the table. The
target: with cleaning on, at most 2 ms of CPU more than with it off.
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import tempfile

TRACKED = "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2Fpage%3Futm_source%3Dx%26fbclid%3Dy&sa=D"
PLAIN = "https://example.org/some/page"
CASES = (("off", [TRACKED]), ("--clean, trackers", [TRACKED, "--clean"]), ("--clean, none", [PLAIN, "--clean"]),
         ("--clean, trackers, no parsed rules", [TRACKED, "--clean"]))
# The case that starts without the parsed rules of the cache.
COLD = "--clean, trackers, no parsed rules"


def install(root, choosy, source):
    prefix = os.path.join(root, "prefix")
    os.makedirs(os.path.join(prefix, "bin"))
    # Without debug information, which valgrind cannot read in a Swift binary (as bench/run.sh).
    subprocess.run(["objcopy", "--strip-debug", choosy, os.path.join(prefix, "bin", "choosy")], check=True)
    shutil.copytree(os.path.join(source, "clean"), os.path.join(prefix, "share", "choosy", "clean"))
    home = os.path.join(root, "home")
    applications = os.path.join(home, ".local/share/applications")
    os.makedirs(applications)
    with open(os.path.join(applications, "firefox.desktop"), "w") as entry:
        entry.write("[Desktop Entry]\nType=Application\nName=Firefox\nExec=/bin/true %u\n"
                    "MimeType=x-scheme-handler/https;x-scheme-handler/http;\n")
    environment = {"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C", "XDG_DATA_DIRS": os.path.join(root, "none"),
                   "XDG_RUNTIME_DIR": root, "CHOOSY_OFFLINE": "1"}
    return os.path.join(prefix, "bin", "choosy"), environment


def cpu_ms(argv, environment):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def instructions(argv, environment):
    if not shutil.which("valgrind"):
        return None
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                         env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    return int(found.group(1)) if found else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("choosy")
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--append")
    arguments = parser.parse_args()
    source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as root:
        choosy, environment = install(root, arguments.choosy, source)
        argvs = {name: [choosy, "handle"] + words + ["--offline", "--dry-run"] for name, words in CASES}
        parsed = os.path.join(environment["HOME"], ".cache", "choosy", "clean", "parsed.rules")
        times = {name: [] for name, _ in CASES}
        # A dry run writes nothing, the cache included: `clean` puts the parsed rules there.
        warm = [choosy, "clean", PLAIN]
        for _ in range(arguments.runs):
            for name, _ in CASES:
                if name == COLD:
                    os.remove(parsed)
                elif not os.path.exists(parsed):
                    cpu_ms(warm, environment)
                times[name].append(cpu_ms(argvs[name], environment))
        off = statistics.median(times["off"])
        lines = ["| handle | CPU ms (median of %d) | more than off | instructions |" % arguments.runs, "|---|---:|---:|---:|"]
        for name, _ in CASES:
            median = statistics.median(times[name])
            if name == COLD:
                os.remove(parsed)
            elif not os.path.exists(parsed):
                cpu_ms(warm, environment)
            count = instructions(argvs[name], environment)
            lines.append("| %s | %.2f | %+.2f | %s |" % (name, median, median - off, "%.1f M" % (count / 1e6) if count else "n/a"))
    print("\n".join(lines))
    if arguments.append:
        with open(arguments.append, "a") as results:
            results.write("\n".join(["", "## Clean links (bench/clean-links.py)", "",
                                      "`handle LINK --offline --dry-run`, with cleaning off and with `--clean`; the target: at most",
                                      "2 ms of CPU more than off for the first cleaned link of a command.", ""] + lines) + "\n")


if __name__ == "__main__":
    main()
