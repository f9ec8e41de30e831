#!/usr/bin/python3
"""Times what `"running": "use"` costs a link click under sway (run by `make bench`).

    bench/running.py CHOOSY [--runs N] [--append RESULTS.md]

On a tree of bench/make-tree.py (40 entries, Firefox the default browser), in a headless sway
with two workspaces: Firefox left running with a foot window on the current one (a script named
`firefox` whose child is the window, as a browser's main process keeps its windows), and a
plain foot window on the other. `choosy handle https://example.org/some/page --offline
--dry-run` is timed with config.json saying `{"running": "use"}` and with no config.json, in
interleaved runs in random order: with the option, choosy reads `/proc` for the browser's
processes and asks sway where its windows are (GET_WORKSPACES and GET_TREE), to focus the one
here. Prints the medians and their difference (the target: at most 5 ms; doc/running.md), and
appends them to RESULTS.md with --append.

Debian's sway does not run as root: as root, sway, the windows and choosy run as nobody
(setpriv), on a tree of their own that nobody owns.
"""

import argparse
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AS_NOBODY = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.getuid() == 0 else []
ARGS = ["handle", "https://example.org/some/page", "--offline", "--dry-run"]


def fail(message):
    sys.exit(f"running: {message}")


def own(directory):
    """Makes `directory` and what it holds nobody's, when sway must run as nobody."""
    if AS_NOBODY:
        for base, dirs, files in os.walk(directory):
            for name in dirs + files:
                os.lchown(os.path.join(base, name), 65534, 65534)
        os.chown(directory, 65534, 65534)


class Sway:
    """A headless sway, with its IPC socket."""

    def __init__(self, directory):
        self.runtime = os.path.join(directory, "sway-run")
        os.makedirs(self.runtime, mode=0o700)
        config = os.path.join(directory, "sway.conf")
        with open(config, "w") as f:
            f.write("output HEADLESS-1 resolution 1280x800\n")
        own(self.runtime)
        env = {"PATH": "/usr/bin:/bin", "HOME": directory, "XDG_RUNTIME_DIR": self.runtime, "WLR_BACKENDS": "headless",
               "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"}
        self.server = subprocess.Popen(AS_NOBODY + ["/usr/bin/sway", "-c", config], env=env, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.perf_counter() + 30
        while not os.path.exists(os.path.join(self.runtime, "wayland-1")) or not self.socket():
            if self.server.poll() is not None or time.perf_counter() > deadline:
                fail("sway did not start")
            time.sleep(0.02)
        self.clients = []

    def socket(self):
        names = [name for name in os.listdir(self.runtime) if name.startswith("sway-ipc.") and name.endswith(".sock")]
        return os.path.join(self.runtime, names[0]) if names else None

    def environment(self):
        return {"XDG_RUNTIME_DIR": self.runtime, "WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": self.socket()}

    def windows(self):
        tree = subprocess.run(AS_NOBODY + ["/usr/bin/swaymsg", "-t", "get_tree"], env=dict(self.environment(), PATH="/usr/bin:/bin"),
                              capture_output=True, text=True).stdout
        return tree.count('"pid"')

    def open(self, argv):
        """Starts `argv` as the compositor's user and waits for one window more."""
        before = self.windows()
        self.clients.append(subprocess.Popen(AS_NOBODY + argv, env=dict(self.environment(), PATH="/usr/bin:/bin"),
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.perf_counter() + 60
        while self.windows() <= before:
            if time.perf_counter() > deadline:
                fail(f"no window of {argv}")
            time.sleep(0.05)

    def message(self, *arguments):
        subprocess.run(AS_NOBODY + ["/usr/bin/swaymsg", *arguments], env=dict(self.environment(), PATH="/usr/bin:/bin"),
                       stdout=subprocess.DEVNULL, check=True)

    def stop(self):
        for client in self.clients:
            client.kill()
        self.server.terminate()
        self.server.wait()


def measure(choosy, runs, directory):
    tree = os.path.join(directory, "tree")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make-tree.py"), "40", tree], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(tree, "env.args")) as f:
        env = dict(word.split("=", 1) for word in shlex.split(f.read()))
    # Firefox the default browser, as a user who clicks links has one (with no display, handle
    # would open it anyway; in sway it would show a picker).
    subprocess.run([choosy, "--offline", "default", "browser", "firefox"], env=env, check=True, stdout=subprocess.DEVNULL)
    # The same configuration with `"running": "use"` beside it: a copy of the config home.
    with_option = env["XDG_CONFIG_HOME"] + "-running"
    shutil.copytree(env["XDG_CONFIG_HOME"], with_option)
    with open(os.path.join(with_option, "choosy", "config.json"), "w") as f:
        f.write('{"running": "use"}\n')
    # Firefox left running, its window the child of a process that runs `firefox`.
    browser = os.path.join(directory, "running", "firefox")
    os.makedirs(os.path.dirname(browser))
    with open(browser, "w") as f:
        f.write("#!/bin/sh\n/usr/bin/foot -e sleep 3600 &\nwait\n")
    os.chmod(browser, 0o755)
    own(directory)
    sway = Sway(directory)
    try:
        sway.open(["/usr/bin/foot", "-e", "sleep", "3600"])
        sway.message("workspace", "2")
        sway.open([browser])
        env.update(sway.environment())
        configurations = {"without": env, "running": dict(env, XDG_CONFIG_HOME=with_option)}
        for name, variables in configurations.items():
            answer = subprocess.run(AS_NOBODY + [choosy, *ARGS, "-v"], env=variables, capture_output=True, text=True,
                                    stdin=subprocess.DEVNULL, timeout=60)
            if answer.returncode != 0 or "firefox" not in answer.stdout:
                fail(f"choosy handle ({name}) printed {answer.stdout!r} {answer.stderr!r}")
            said = "focus first" in answer.stderr
            if said != (name == "running"):
                fail(f"choosy handle ({name}) {'did not say' if not said else 'said'} it would focus Firefox's window: {answer.stderr}")
        samples = {name: [] for name in configurations}
        for _ in range(runs):
            order = list(configurations)
            random.shuffle(order)
            for name in order:
                start = time.perf_counter()
                subprocess.run(AS_NOBODY + [choosy, *ARGS], env=configurations[name], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, check=True, timeout=60)
                samples[name].append(time.perf_counter() - start)
        return samples
    finally:
        sway.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("choosy")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--append")
    args = parser.parse_args()
    for program in ("sway", "foot", "swaymsg"):
        if shutil.which(program) is None:
            fail(f"{program} is not installed (make bench installs it)")
    with tempfile.TemporaryDirectory(prefix="choosy-running-") as directory:
        os.chmod(directory, 0o755)
        # choosy as nobody needs a copy it can run.
        binary = os.path.join(directory, "choosy")
        shutil.copy(os.path.abspath(args.choosy), binary)
        samples = measure(binary, args.runs, directory)
    without = statistics.median(samples["without"]) * 1e3
    running = statistics.median(samples["running"]) * 1e3
    print(f'handle --dry-run: without a running option {without:.1f} ms, with "running": "use" {running:.1f} ms, '
          f"{running - without:+.1f} ms", flush=True)
    if args.append:
        with open(args.append, "a") as f:
            f.write(
                '\n## "running": "use" under sway\n\n'
                f"`choosy handle https://example.org/some/page --offline --dry-run` at 40 entries, in a headless sway with Firefox "
                f"running with a window on the current workspace (median of {args.runs} interleaved runs each; bench/running.py): "
                "with the option choosy reads /proc and asks sway where Firefox's windows are. Target: at most 5 ms more.\n\n"
                "| without a running option | with `\"running\": \"use\"` | difference |\n|---:|---:|---:|\n"
                f"| {without:.1f} ms | {running:.1f} ms | {running - without:+.1f} ms |\n"
            )


if __name__ == "__main__":
    main()
