#!/usr/bin/env python3
"""How choosy's time grows with the number of candidates (doc/security.md: costs at most
n log n). Usage: bench/candidates.py CHOOSY [--runs N] [--append RESULTS.md]

Builds, in a temporary directory, a home with 1,000 and with 10,000 Firefox profiles, and one
with 1,000 and with 10,000 desktop entries declaring x-scheme-handler/https, then times, run
by run interleaved across the sizes, `choosy handle URL` up to its picker (a picker command
that reads the choices and cancels) and `choosy list browser`. It prints, and with --append
adds to RESULTS.md, the median wall time and the time per candidate at 10,000 as a multiple
of that at 1,000: 1.0 is linear, and the target is at most 2.0.
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

SIZES = (1000, 10000)


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
    if kind == "profiles":
        with open(os.path.join(applications, "firefox-esr.desktop"), "w") as entry:
            entry.write("[Desktop Entry]\nType=Application\nName=Firefox\nExec=browser %u\n"
                        "MimeType=x-scheme-handler/https;x-scheme-handler/http;\n")
        profiles = os.path.join(home, ".mozilla/firefox")
        os.makedirs(profiles)
        with open(os.path.join(profiles, "profiles.ini"), "w") as ini:
            for i in range(n):
                ini.write(f"[Profile{i}]\nName=Profile {i}\nIsRelative=1\nPath=Profiles/p{i}\n\n")
    else:
        for i in range(n):
            with open(os.path.join(applications, f"handler{i}.desktop"), "w") as entry:
                entry.write(f"[Desktop Entry]\nType=Application\nName=Handler {i}\nExec=browser %u\n"
                            "MimeType=x-scheme-handler/https;\n")
    return {"HOME": home, "XDG_RUNTIME_DIR": root, "PATH": bin_dir + ":/usr/bin:/bin", "CHOOSY_OFFLINE": "1"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("choosy")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--append")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        cases = []
        for kind in ("profiles", "https handlers"):
            for n in SIZES:
                root = os.path.join(work, f"{kind.replace(' ', '-')}-{n}")
                os.makedirs(root)
                environment = make_home(root, kind, n)
                pick = os.path.join(root, "bin", "pick")
                for command in (["handle", "https://example.org/", "--picker", pick], ["list", "browser"]):
                    cases.append((kind, n, " ".join(command[:1] + (["URL"] if command[0] == "handle" else command[1:])),
                                  [options.choosy] + command, environment))
        times = {index: [] for index in range(len(cases))}
        for _ in range(options.runs + 1):
            for index, (_, _, _, argv, environment) in enumerate(cases):
                start = time.perf_counter()
                subprocess.run(argv, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                times[index].append(time.perf_counter() - start)
        medians = {index: statistics.median(values[1:]) for index, values in times.items()}  # the first is warm-up
    lines = ["", "## Time per candidate (bench/candidates.py)", "",
             f"Median of {options.runs} interleaved runs; per candidate: time per candidate at 10,000 over that at 1,000 (at most 2.0).", "",
             "| candidates | command | 1,000 | 10,000 | per candidate |", "| --- | --- | --- | --- | --- |"]
    for kind in ("profiles", "https handlers"):
        for command in ("handle URL", "list browser"):
            small, large = (medians[i] for i, case in enumerate(cases) if case[0] == kind and case[2] == command)
            lines.append(f"| {kind} | `{command}` | {small * 1000:.0f} ms | {large * 1000:.0f} ms | {large / 10 / small:.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if options.append:
        with open(options.append, "a") as results:
            results.write(text)


if __name__ == "__main__":
    main()
