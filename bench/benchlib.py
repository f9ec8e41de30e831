"""What the bench's scripts share: a stripped copy of choosy for callgrind, a generated tree
made ready as a user's is, and callgrind's count of a command's instructions."""
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def stripped_copy(choosy, work):
    """choosy without debug information, which valgrind cannot read in a Swift binary (as bench/run.sh)."""
    copy = os.path.join(work, "choosy")
    subprocess.run(["objcopy", "--strip-debug", choosy, copy], check=True)
    return copy


def ready_tree(size, work, choosy):
    """A tree of bench/make-tree.py with `size` entries, older than choosy's 2 s guard so that
    its desktop index is saved (as bench/run.sh ages it), Firefox the browser type's default;
    returns the tree's directory and its environment."""
    tree = os.path.join(work, f"tree-{size}")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make-tree.py"), str(size), tree], check=True,
                   stdout=subprocess.DEVNULL)
    with open(os.path.join(tree, "env.args")) as f:
        environment = dict(word.split("=", 1) for word in shlex.split(f.read()))
    old = time.time() - 60
    for base, directories, _ in os.walk(tree):
        for directory in directories:
            os.utime(os.path.join(base, directory), (old, old))
    subprocess.run([choosy, "--offline", "default", "browser", "firefox"], env=environment, check=True,
                   stdout=subprocess.DEVNULL)
    return tree, environment


def instructions(argv, environment, who):
    """The instructions callgrind counts for one run (choosy's own, not its children's)."""
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                         env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if not found:
        sys.exit(f"{who}: callgrind counted nothing: " + run.stderr[-300:])
    return int(found.group(1))
