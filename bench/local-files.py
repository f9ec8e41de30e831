#!/usr/bin/env python3
"""What a local file costs `choosy handle` against a link (doc/spec-choices.md, "Local files").
Usage: bench/local-files.py CHOOSY [--sizes 40,4000] [--append RESULTS.md]

On trees of bench/make-tree.py (Firefox the browser type's default), with a copy of the
system's shared-mime-info database (/usr/share/mime) in the tree's XDG_DATA_HOME: instructions
(callgrind, one run each) of `handle https://example.org/some/page --offline --dry-run` and of
`handle PAGE.html --offline --dry-run` (an HTML page, which the browser type claims), and which
files of the MIME database each opens (strace). The targets (issue 45): the file at most 1.5×
the link's instructions; the link opens no file of the MIME database, the file each of them
at most once.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from benchlib import instructions, ready_tree, stripped_copy

LINK = "https://example.org/some/page"
TARGET = 1.5


def mime_opens(argv, environment, work):
    """The files below a `mime/` directory that the command opened, with how often."""
    trace = os.path.join(work, "strace.out")
    subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat,open", "-o", trace] + argv,
                   env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    opened = {}
    with open(trace) as lines:
        for line in lines:
            found = re.search(r'open(?:at)?\([^"]*"([^"]*/mime/[^"]*)"', line)
            if found and "= -1" not in line:
                opened[found.group(1)] = opened.get(found.group(1), 0) + 1
    return opened


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("choosy")
    parser.add_argument("--sizes", default="40,4000")
    parser.add_argument("--append")
    arguments = parser.parse_args()
    for tool in ("valgrind", "strace", "objcopy"):
        if shutil.which(tool) is None:
            sys.exit(f"local-files: {tool} is not installed (make bench installs it)")
    if not os.path.isdir("/usr/share/mime/packages"):
        sys.exit("local-files: no shared-mime-info database in /usr/share/mime (apt-get install -y shared-mime-info)")
    rows, met = [], True
    with tempfile.TemporaryDirectory(prefix="choosy-files-") as work:
        choosy = stripped_copy(arguments.choosy, work)
        for size in [int(n) for n in arguments.sizes.split(",")]:
            tree, environment = ready_tree(size, work, choosy)
            shutil.copytree("/usr/share/mime", os.path.join(environment["XDG_DATA_HOME"], "mime"), symlinks=True)
            page = os.path.join(tree, "page.html")
            with open(page, "w") as f:
                f.write("<!DOCTYPE html>\n<html><head><title>A page</title></head><body>Hello</body></html>\n")
            argv = {"link": [choosy, "handle", LINK, "--offline", "--dry-run"],
                    "file": [choosy, "handle", page, "--offline", "--dry-run"]}
            for name, command in argv.items():
                answer = subprocess.run(command, env=environment, capture_output=True, text=True)
                if answer.returncode != 0 or "firefox" not in answer.stdout:
                    sys.exit(f"local-files: handle ({name}, N={size}) printed {answer.stdout!r} {answer.stderr!r}")
            counts = {name: instructions(command, environment, "local-files") for name, command in argv.items()}
            opens = {name: mime_opens(command, environment, work) for name, command in argv.items()}
            ratio = counts["file"] / counts["link"]
            once = bool(opens["file"]) and all(count == 1 for count in opens["file"].values())
            ok = ratio <= TARGET and not opens["link"] and once
            met = met and ok
            rows.append(f"| {size:,} | {counts['link']:,} | {counts['file']:,} | {ratio:.2f}× | {len(opens['link'])} | "
                        f"{len(opens['file'])}, {'each once' if once else 'some more than once'} | "
                        f"{'**met**' if ok else '**MISSED**'} |")
    lines = ["| N entries | handle LINK: instructions | handle PAGE.html: instructions | ÷ | MIME files opened for the link "
             "| for the file | |", "|---:|---:|---:|---:|---:|---|---|"] + rows
    print("\n".join(lines))
    if arguments.append:
        with open(arguments.append, "a") as results:
            results.write("\n".join(["", "## Local files (bench/local-files.py)", "",
                                     "`handle PAGE.html --offline --dry-run` (the browser type claims HTML) against `handle LINK`, "
                                     "on trees with a copy of the system's shared-mime-info database; instructions by callgrind, "
                                     "files opened by strace. Targets: the file at most 1.5× the link's instructions; the link "
                                     "opens no file of the MIME database, the file each at most once.", ""] + lines) + "\n")
    if not met:
        print("local-files: a target was missed", file=sys.stderr)


if __name__ == "__main__":
    main()
