#!/usr/bin/env python3
"""Times commands interleaved: each iteration runs every command once, in a new random order.

    bench/interleave.py --runs N --warmup W --output FILE.json  NAME ENV_ARGS_FILE [--remove=PATH] -- ARGV... [;; NAME ...]

Each command runs with exactly the environment in its ENV_ARGS_FILE (`K=V` words, shell
quoted, as bench/make-tree.py writes them), stdout and stderr to /dev/null. With
--remove=PATH, PATH is deleted (untimed) before each of its runs: choosy's desktop index
cache, for the cold path. hyperfine runs one
command's samples back to back, so on a shared machine a burst of load lands on one command
and not the others; interleaving spreads it over all of them, which is what comparing one
command across tree sizes needs. Records, per command, the wall time (spawn to exit) and the
CPU time (user + system, from wait4) of every run, in seconds.
"""

import argparse
import json
import os
import random
import shlex
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--output", required=True)
    parser.add_argument("specs", nargs=argparse.REMAINDER)
    args = parser.parse_args()

    commands = []
    words = args.specs
    while words:
        if ";;" in words:
            cut = words.index(";;")
            spec, words = words[:cut], words[cut + 1:]
        else:
            spec, words = words, []
        remove = None
        if len(spec) > 2 and spec[2].startswith("--remove="):
            remove = spec.pop(2)[len("--remove="):]
        if len(spec) < 4 or spec[2] != "--":
            sys.exit(f"interleave: bad command spec {spec}")
        name, env_file, argv = spec[0], spec[1], spec[3:]
        with open(env_file) as f:
            env = dict(word.split("=", 1) for word in shlex.split(f.read()))
        commands.append((name, argv, env, remove))

    devnull = os.open(os.devnull, os.O_RDWR)
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)]
    results = {name: {"wall": [], "cpu": []} for name, _, _, _ in commands}
    order = random.Random(1)
    for iteration in range(args.warmup + args.runs):
        batch = list(commands)
        order.shuffle(batch)
        for name, argv, env, remove in batch:
            if remove is not None and os.path.lexists(remove):
                os.unlink(remove)
            start = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
            _, status, usage = os.wait4(pid, 0)
            wall = time.perf_counter() - start
            if os.waitstatus_to_exitcode(status) != 0:
                sys.exit(f"interleave: {name} failed (status {os.waitstatus_to_exitcode(status)})")
            if iteration >= args.warmup:
                results[name]["wall"].append(wall)
                results[name]["cpu"].append(usage.ru_utime + usage.ru_stime)
    with open(args.output, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
