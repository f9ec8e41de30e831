#!/usr/bin/python3
"""Times what choosy adds before a picker's first frame (run by `make bench`).

    bench/first-frame.py CHOOSY [--runs N] [--pickers rofi,zenity,fuzzel] [--append RESULTS.md]

A link click that shows a picker: `choosy handle https://example.org/page --offline --choose
--picker P` on a tree of bench/make-tree.py (40 entries), against the same picker started
alone with the argv, environment and input lines choosy gives it (captured once by a stand-in
of the picker that records them). Each run is timed from the spawn to the picker's first
frame: for rofi and zenity, the MapNotify of its window on Xvfb (python3-xlib, listening on
the root window); for fuzzel, the first buffer it attaches to a surface on a headless sway
(sway's WAYLAND_DEBUG=server log, followed as it is written). The picker is then closed (its
X client killed; on Wayland, the process ended) and the next run starts; choosy and alone
runs are interleaved, in random order. Prints the medians and their difference, which is
what choosy adds (the target: at most 5 ms), and appends them to RESULTS.md with --append.

Debian's sway does not run as root: as root, sway, choosy and fuzzel run as nobody
(setpriv), on a tree of their own that nobody owns.
"""

import argparse
import os
import random
import re
import select
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
URL = "https://example.org/page"
AS_NOBODY = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.getuid() == 0 else []


def fail(message):
    sys.exit(f"first-frame: {message}")


def make_tree(directory, owner_nobody=False):
    """A tree of 40 entries (firefox and chromium among them) and its environment."""
    tree = os.path.join(directory, "tree")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make-tree.py"), "40", tree], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(tree, "env.args")) as f:
        env = dict(word.split("=", 1) for word in shlex.split(f.read()))
    if owner_nobody and AS_NOBODY:
        for base, dirs, files in os.walk(directory):
            for name in dirs + files:
                os.lchown(os.path.join(base, name), 65534, 65534)
        os.chown(directory, 65534, 65534)
    return env


def capture(choosy, picker, env, directory, users):
    """The argv, environment and input that choosy gives `picker`, from a stand-in of it."""
    stand_in = os.path.join(directory, "stand-in")
    os.makedirs(stand_in, exist_ok=True)
    record = os.path.join(directory, "captured-" + picker)
    script = os.path.join(stand_in, picker)
    with open(script, "w") as f:
        f.write(
            "#!/bin/sh\n"
            f"printf '%s\\0' \"$@\" > '{record}.argv'\n"
            f"env -0 > '{record}.env'\n"
            f"cat > '{record}.input'\n"
            "exit 1\n"
        )
    os.chmod(script, 0o755)
    if users:
        for path in (stand_in, script):
            os.chown(path, 65534, 65534)
    run_env = dict(env, PATH=stand_in + ":" + env["PATH"])
    subprocess.run(users + choosy_argv(choosy, picker), env=run_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with open(record + ".argv", "rb") as f:
            argv = [word.decode() for word in f.read().split(b"\0")[:-1]]
        with open(record + ".env", "rb") as f:
            picker_env = dict(item.decode().split("=", 1) for item in f.read().split(b"\0") if b"=" in item)
        with open(record + ".input", "rb") as f:
            lines = f.read()
    except OSError:
        fail(f"choosy did not start {picker} (nothing captured)")
    # The stand-in was found by PATH; alone, the real picker is.
    argv = [shutil.which(picker)] + argv
    picker_env["PATH"] = env["PATH"]
    return argv, picker_env, lines


def choosy_argv(choosy, picker):
    return [choosy, "handle", URL, "--offline", "--choose", "--picker", picker]


class X11:
    """Xvfb, and a client that sees every window mapped on it."""

    def __init__(self, directory):
        from Xlib import X, display

        self.X = X
        read, write = os.pipe()
        self.server = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
            pass_fds=[write], stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "xvfb.log"), "w"),
        )
        os.close(write)
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(read, 16)
            if not chunk:
                fail("Xvfb did not start")
            number += chunk
        os.close(read)
        self.name = ":" + number.decode().strip()
        self.display = display.Display(self.name)
        self.display.screen().root.change_attributes(event_mask=X.SubstructureNotifyMask)
        self.display.sync()

    def environment(self):
        return {"DISPLAY": self.name}

    def drain(self):
        while self.display.pending_events():
            self.display.next_event()

    def wait_for_frame(self, process, timeout=30):
        """The perf_counter() time at which a window was mapped (None if none was); kills its client."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            while self.display.pending_events():
                event = self.display.next_event()
                if event.type == self.X.MapNotify:
                    seen = time.perf_counter()
                    event.window.kill_client()
                    self.display.sync()
                    return seen
            if process.poll() is not None:
                return None
            select.select([self.display.fileno()], [], [], 0.05)
        return None

    def stop(self):
        self.server.terminate()
        self.server.wait()


class Sway:
    """A headless sway whose log shows each request of its clients as it is received."""

    def __init__(self, directory):
        self.runtime = os.path.join(directory, "sway-run")
        os.makedirs(self.runtime, mode=0o700)
        config = os.path.join(directory, "sway.conf")
        with open(config, "w") as f:
            f.write("output HEADLESS-1 resolution 1280x800\n")
        self.log = os.path.join(directory, "sway.log")
        if AS_NOBODY:
            for path in (self.runtime, config):
                os.chown(path, 65534, 65534)
        env = {
            "PATH": "/usr/bin:/bin", "HOME": directory, "XDG_RUNTIME_DIR": self.runtime, "WLR_BACKENDS": "headless",
            "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman", "WAYLAND_DEBUG": "server",
        }
        self.server = subprocess.Popen(AS_NOBODY + ["/usr/bin/sway", "-c", config], env=env, stdin=subprocess.DEVNULL,
                                       stdout=open(self.log, "w"), stderr=subprocess.STDOUT)
        deadline = time.perf_counter() + 30
        while not os.path.exists(os.path.join(self.runtime, "wayland-1")):
            if self.server.poll() is not None or time.perf_counter() > deadline:
                fail("sway did not start")
            time.sleep(0.02)
        # A keyboard on the seat, as a user has (the pickers ask for one).
        self.keyboard = subprocess.Popen(AS_NOBODY + ["/usr/bin/wtype", "-s", "3600000"], env=dict(env, WAYLAND_DISPLAY="wayland-1", WAYLAND_DEBUG=""),
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.file = open(self.log, "rb")
        self.file.seek(0, os.SEEK_END)

    def environment(self):
        return {"XDG_RUNTIME_DIR": self.runtime, "WAYLAND_DISPLAY": "wayland-1"}

    def drain(self):
        self.file.read()

    def wait_for_frame(self, process, timeout=30):
        pending = b""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            chunk = self.file.read()
            if chunk:
                pending += chunk
                if re.search(rb"wl_surface@\d+\.attach\(wl_buffer@\d+", pending):
                    return time.perf_counter()
                pending = pending[pending.rfind(b"\n") + 1:]
            elif process.poll() is not None:
                return None
            else:
                time.sleep(0.0005)
        return None

    def stop(self):
        self.keyboard.terminate()
        self.server.terminate()
        self.server.wait()


def end_picker(process, server, through_choosy):
    """After the first frame: on X its client is already killed; on Wayland, the picker is ended
    (choosy's child, or the process itself). Then waits for the process."""
    if isinstance(server, Sway):
        pids = [process.pid]
        if through_choosy:
            with open(f"/proc/{process.pid}/task/{process.pid}/children") as f:
                pids = [int(pid) for pid in f.read().split()]
        for pid in pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def measure(choosy, picker, runs, directory):
    wayland = picker == "fuzzel"
    env = make_tree(directory, owner_nobody=wayland)
    server = Sway(directory) if wayland else X11(directory)
    try:
        env.update(server.environment())
        # As the tree's user (HOME) would have it: the desktop index cache built.
        users = AS_NOBODY if wayland else []
        subprocess.run(users + [choosy, "handle", URL, "--offline", "--dry-run", "--app", "firefox"], env=env, stdout=subprocess.DEVNULL, check=True)
        argv, picker_env, lines = capture(choosy, picker, env, directory, users)
        samples = {"choosy": [], "alone": []}
        order = random.Random(1)
        for iteration in range(runs + 2):
            batch = ["choosy", "alone"]
            order.shuffle(batch)
            for kind in batch:
                server.drain()
                start = time.perf_counter()
                if kind == "choosy":
                    process = subprocess.Popen(users + choosy_argv(choosy, picker), env=env, stdin=subprocess.DEVNULL,
                                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                else:
                    process = subprocess.Popen(users + argv, env=picker_env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                               stderr=open(os.path.join(directory, "picker.log"), "w"))
                    process.stdin.write(lines)
                    process.stdin.close()
                seen = server.wait_for_frame(process)
                if seen is None:
                    fail(f"{picker} ({kind}) showed no window: " + open(os.path.join(directory, "picker.log")).read()[-300:])
                end_picker(process, server, through_choosy=kind == "choosy")
                if iteration >= 2:
                    samples[kind].append(seen - start)
        return samples
    finally:
        server.stop()



def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("choosy")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--pickers", default="rofi,zenity,fuzzel")
    parser.add_argument("--append")
    args = parser.parse_args()
    choosy = os.path.abspath(args.choosy)
    rows = []
    for picker in args.pickers.split(","):
        if shutil.which(picker) is None:
            fail(f"{picker} is not installed (make bench installs it)")
        with tempfile.TemporaryDirectory(prefix="choosy-first-frame-") as directory:
            os.chmod(directory, 0o755)
            # choosy as nobody needs a copy it can run.
            binary = os.path.join(directory, "choosy")
            shutil.copy(choosy, binary)
            samples = measure(binary, picker, args.runs, directory)
        with_choosy = statistics.median(samples["choosy"]) * 1e3
        alone = statistics.median(samples["alone"]) * 1e3
        rows.append((picker, with_choosy, alone))
        print(f"{picker}: with choosy {with_choosy:.1f} ms, alone {alone:.1f} ms, choosy adds {with_choosy - alone:+.1f} ms", flush=True)
    if args.append:
        with open(args.append, "a") as f:
            f.write(
                "\n## The picker's first frame\n\n"
                f"From spawn to the picker's first frame (median of {args.runs} interleaved runs each; bench/first-frame.py): "
                "`choosy handle URL --choose --picker P` against P started alone with the same argv, environment and lines. "
                "Target: choosy adds at most 5 ms.\n\n"
                "| picker | with choosy | alone | choosy adds |\n|---|---:|---:|---:|\n"
            )
            for picker, with_choosy, alone in rows:
                f.write(f"| {picker} | {with_choosy:.1f} ms | {alone:.1f} ms | {with_choosy - alone:+.1f} ms |\n")


if __name__ == "__main__":
    main()
