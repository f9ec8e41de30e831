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
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import tempfile

TRACKED = "https://www.google.com/url?q=https%3A%2F%2Fexample.org%2Fpage%3Futm_source%3Dx%26fbclid%3Dy&sa=D"
PLAIN = "https://example.org/some/page"
# A link of 2,000 parameters, 64 KiB in all, that every pattern is tried on.
HOSTILE_LINK = "https://example.org/?" + "&".join("utm_%d=%s" % (n, "x" * 24) for n in range(2000))
CASES = (("off", [TRACKED]), ("--clean, trackers", [TRACKED, "--clean"]), ("--clean, none", [PLAIN, "--clean"]),
         ("--clean, trackers, no parsed rules", [TRACKED, "--clean"]),
         ("off, hostile link", [HOSTILE_LINK]), ("--clean, hostile link", [HOSTILE_LINK, "--clean"]))
# The case that starts without the parsed rules of the cache.
COLD = "--clean, trackers, no parsed rules"
# Hostile rules files of the user's (~/.config/choosy/clean/), each in a home of its own, on the
# link with trackers; the target: at most 100 ms more than cleaning off. The 2 MB files are
# just under the 2 MiB a rules file may have: patterns that backtrack to PCRE2's limit at every
# start position (issue 39: 37-47 s a link before the budget), providers each for a site of its
# own (as ClearURLs' are), and providers that all apply to every link.
HOSTILE_FILES = ("catastrophic patterns", "2 MB of backtracking patterns", "2 MB of providers, one a site",
                 "2 MB of providers, all applying", "10 MB of providers", "invalid JSON")
HOSTILE_TARGET_MS = 100
TWO_MB = 1_950_000


def providers_of_size(make, size=TWO_MB):
    """A rules file of providers `make(n)`, as many as fit in `size` bytes."""
    entries, total = [], 16
    while True:
        entry = '"p%d": %s' % (len(entries), json.dumps(make(len(entries))))
        if total + len(entry) + 1 > size:
            return '{"providers": {' + ",".join(entries) + "}}"
        entries.append(entry)
        total += len(entry) + 1


def hostile_rules(name):
    if name == "2 MB of backtracking patterns":
        # Each backtracks to the limit on any link: PCRE2 finds no character it requires missing.
        return providers_of_size(lambda n: {"urlPattern": "(?:.*){8}[&=]{9,%d}" % (n + 9), "rawRules": ["(.|.)*(.|.)*[^\\s\\S]"],
                                            "rules": ["(a|aa)*[bc]%d" % n]})
    if name == "2 MB of providers, one a site":
        return providers_of_size(lambda n: {"urlPattern": "^https?:\\/\\/(?:[a-z0-9-]+\\.)*?site%d\\.example" % n,
                                            "rules": ["utm_[a-z]+", "session%d" % n, "track(?:ing)?_id", "fbclid"],
                                            "rawRules": ["\\/ref=[^/?]*"], "exceptions": ["^https?:\\/\\/[^/]+\\/keep%d" % n],
                                            "redirections": ["^https?:\\/\\/[^/]+\\/out\\?u=([^&]+)"]})
    if name == "2 MB of providers, all applying":
        return providers_of_size(lambda n: {"urlPattern": ".*", "rules": ["x%dutm" % n, "y%d_[a-z]+" % n]})
    if name == "catastrophic patterns":
        provider = {"urlPattern": "^https?://(a|a)*(a|a)*(a|a)*$", "completeProvider": False,
                    "rules": ["(x+x+)+y", "(.*)*(.*)*=", "(a|aa)+$"], "rawRules": ["((.+)+)+!"],
                    "exceptions": ["(\\w+\\W*)+$"], "redirections": ["^(.+)+=(.*)*$"]}
        return json.dumps({"providers": {"catastrophic%d" % n: dict(provider, urlPattern=".*") for n in range(20)}})
    if name == "10 MB of providers":
        provider = json.dumps({"urlPattern": "^https?://([a-z0-9-]+\\.)?example\\.com", "rules": ["utm_[a-z]+", "fbclid"] * 20})
        count = 10_000_000 // (len(provider) + 16)
        return '{"providers": {' + ",".join('"p%d": %s' % (n, provider) for n in range(count)) + "}}"
    return '{"providers": {"broken": {"urlPattern": "example", "rules": ["utm_' + "[" * 5000 + '"'


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
    # valgrind runs choosy some fifty times slower: a link's budget of CPU time grows to match,
    # so that the cleaning counted is the one that runs without it.
    environment = dict(environment, CHOOSY_CLEAN_TIME_LIMIT="10")
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
            base = statistics.median(times["off, hostile link"]) if "hostile" in name else off
            lines.append("| %s | %.2f | %+.2f | %s |" % (name, median, median - base, "%.1f M" % (count / 1e6) if count else "n/a"))
        hostile = hostile_homes(root, environment)
        argv = argvs["--clean, trackers"]
        # The parsed rules in each home's cache, as for the cases above (a dry run writes none).
        for home in hostile.values():
            subprocess.run(warm, env=home, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        hostile_times = {name: [] for name in hostile}
        for _ in range(arguments.runs):
            for name, home in hostile.items():
                hostile_times[name].append(cpu_ms(argv, home))
        lines += ["", "| handle --clean, a rules file of the user's with | CPU ms (median of %d) | more than off | target | the link |"
                  % arguments.runs, "|---|---:|---:|---|---|"]
        for name, home in hostile.items():
            extra = statistics.median(hostile_times[name]) - off
            lines.append("| %s | %.2f | %+.2f | %s | %s |" % (name, statistics.median(hostile_times[name]), extra,
                                                             "met" if extra <= HOSTILE_TARGET_MS else "**MISSED**",
                                                             outcome([choosy, "clean", TRACKED], home)))
    print("\n".join(lines))
    if arguments.append:
        with open(arguments.append, "a") as results:
            results.write("\n".join(["", "## Clean links (bench/clean-links.py)", "",
                                      "`handle LINK --offline --dry-run`, with cleaning off and with `--clean`; the target: at most",
                                      "2 ms of CPU more than off for the first cleaned link of a command, and at most %d ms more" % HOSTILE_TARGET_MS,
                                      "with a hostile rules file of the user's or a hostile link (2,000 parameters, 64 KiB).", ""] + lines) + "\n")


def outcome(argv, environment):
    """What became of the link with trackers: cleaned, or left as it was, and why."""
    run = subprocess.run(argv, env=environment, capture_output=True, text=True)
    if "took more than" in run.stderr:
        return "left as it was: over its budget"
    if run.stdout.strip() == "https://example.org/page":
        return "cleaned"
    return "left as it was: " + (run.stderr.strip().splitlines() or ["?"])[-1][:60].replace("|", "/")


def hostile_homes(root, environment):
    """An environment per hostile rules file: its own config directory, the same home."""
    homes = {}
    for number, name in enumerate(HOSTILE_FILES):
        config = os.path.join(root, "config-hostile-%d" % number)
        os.makedirs(os.path.join(config, "choosy", "clean"))
        with open(os.path.join(config, "choosy", "clean", "hostile.json"), "w") as rules:
            rules.write(hostile_rules(name))
        homes[name] = dict(environment, XDG_CONFIG_HOME=config, XDG_CACHE_HOME=os.path.join(root, "cache-hostile-%d" % number))
    return homes


if __name__ == "__main__":
    main()
