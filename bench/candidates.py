#!/usr/bin/env python3
"""How choosy's time grows with the number of candidates (doc/security.md: costs at most
n log n). Usage: bench/candidates.py CHOOSY [--runs N] [--append RESULTS.md]

Builds, in a temporary directory, homes with 1,000 and with 10,000 Firefox profiles (their
directories missing, as in a generated profiles.ini), with one profile holding 10,000 and
100,000 containers (the container extension active), and with 1,000 and 10,000 desktop
entries declaring x-scheme-handler/https, then runs, run by run interleaved across all of
them, `choosy handle URL` up to its picker (a picker command that reads the choices and
cancels) and `choosy list browser`. It prints, and with --append adds to RESULTS.md, the
median wall and CPU time (choosy's own and its picker's, from wait4) of each, and how many
times more the ten times larger case costs: the target is at most 15 times (linear is 10).
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

# Per kind of candidate: the two sizes, the larger ten times the smaller.
SIZES = {"profiles": (1000, 10000), "containers": (10000, 100000), "https handlers": (1000, 10000)}
TARGET = 15.0
CONTAINER_EXTENSION = "{4d4aee45-b821-48a9-801c-d4a05821de76}"


def make_home(root, kind, n):
    home = os.path.join(root, "home")
    applications = os.path.join(home, ".local/share/applications")
    bin_dir = os.path.join(root, "bin")
    os.makedirs(applications)
    os.makedirs(bin_dir)
    for name, body in (("browser", "#!/bin/sh\n"), ("pick", "#!/bin/sh\ncat >/dev/null\nexit 1\n")):
        path = os.path.join(bin_dir, name)
        with open(path, "w") as script:
            script.write(body)
        os.chmod(path, 0o755)
    if kind in ("profiles", "containers"):
        with open(os.path.join(applications, "firefox-esr.desktop"), "w") as entry:
            entry.write("[Desktop Entry]\nType=Application\nName=Firefox\nExec=browser %u\n"
                        "MimeType=x-scheme-handler/https;x-scheme-handler/http;\n")
        profiles = os.path.join(home, ".mozilla/firefox")
        os.makedirs(profiles)
        count = n if kind == "profiles" else 2
        with open(os.path.join(profiles, "profiles.ini"), "w") as ini:
            for i in range(count):
                ini.write(f"[Profile{i}]\nName=Profile {i}\nIsRelative=1\nPath=Profiles/p{i}\n\n")
        if kind == "containers":
            directory = os.path.join(profiles, "Profiles/p0")
            os.makedirs(directory)
            with open(os.path.join(directory, "extensions.json"), "w") as extensions:
                json.dump({"addons": [{"id": CONTAINER_EXTENSION, "active": True}]}, extensions)
            with open(os.path.join(directory, "containers.json"), "w") as containers:
                # As few members as Firefox reads, so that 100,000 fit the 8 MiB a containers.json may have.
                identities = [{"name": f"C{i}", "public": True, "userContextId": i + 1} for i in range(n)]
                json.dump({"version": 5, "lastUserContextId": n, "identities": identities}, containers)
    else:
        for i in range(n):
            with open(os.path.join(applications, f"handler{i}.desktop"), "w") as entry:
                entry.write(f"[Desktop Entry]\nType=Application\nName=Handler {i}\nExec=browser %u\n"
                            "MimeType=x-scheme-handler/https;\n")
    return {"HOME": home, "XDG_RUNTIME_DIR": root, "PATH": bin_dir + ":/usr/bin:/bin", "CHOOSY_OFFLINE": "1"}


def timed(argv, environment):
    """Wall and CPU seconds of one run (CPU: user and system, of choosy and what it waited for)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("choosy")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--append")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        cases = []
        for kind, sizes in SIZES.items():
            for n in sizes:
                root = os.path.join(work, f"{kind.replace(' ', '-')}-{n}")
                os.makedirs(root)
                environment = make_home(root, kind, n)
                pick = os.path.join(root, "bin", "pick")
                for command in (["handle", "https://example.org/", "--picker", pick], ["list", "browser"]):
                    cases.append((kind, n, " ".join(command[:1] + (["URL"] if command[0] == "handle" else command[1:])),
                                  [options.choosy] + command, environment))
        # Each case offers all its candidates (a file refused for its size would offer none).
        for kind, n, command, argv, environment in cases:
            if command == "list browser":
                listed = subprocess.run(argv, env=environment, capture_output=True, text=True).stdout.count("\n")
                if listed < n:
                    raise SystemExit(f"bench: {kind}, {n}: list browser shows {listed} lines")
        times = {index: [] for index in range(len(cases))}
        for _ in range(options.runs + 1):
            for index, (_, _, _, argv, environment) in enumerate(cases):
                times[index].append(timed(argv, environment))
        # The first run of each is warm-up.
        medians = {index: tuple(statistics.median(run[part] for run in values[1:]) for part in (0, 1))
                   for index, values in times.items()}
    lines = ["", "## Many candidates (bench/candidates.py)", "",
             f"Median of {options.runs} interleaved runs, wall / CPU time; ×: the ten times larger case over the smaller "
             f"(at most {TARGET:.0f}×; linear is 10×).", "",
             "| candidates | command | smaller | wall | CPU | larger | wall | CPU | × wall | × CPU | |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for kind, (small_n, large_n) in SIZES.items():
        for command in ("handle URL", "list browser"):
            small, large = (medians[i] for i, case in enumerate(cases) if case[0] == kind and case[2] == command)
            wall, cpu = large[0] / small[0], large[1] / small[1]
            verdict = "**met**" if cpu <= TARGET else "**MISSED**"
            lines.append(f"| {kind} | `{command}` | {small_n:,} | {small[0] * 1000:.0f} ms | {small[1] * 1000:.0f} ms | "
                         f"{large_n:,} | {large[0] * 1000:.0f} ms | {large[1] * 1000:.0f} ms | {wall:.1f}× | {cpu:.1f}× | {verdict} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if options.append:
        with open(options.append, "a") as results:
            results.write(text)


if __name__ == "__main__":
    main()
