#!/usr/bin/env python3
"""KWin's scripting over D-Bus, for choosy's tests, on the bus of DBUS_SESSION_BUS_ADDRESS:
it owns org.kde.KWin and answers as KWin does (see Tests/Fixtures/window-systems/kwin/README.md)

- /Scripting org.kde.kwin.Scripting.loadScript(s path, s plugin) -> i: a new script's ID;
  unloadScript(s plugin) -> b;
- /Scripting/Script<ID> (Plasma 6) or /<ID> (with --plasma 5) org.kde.kwin.Script.run():
  runs the script, as KWin's JavaScript engine would, in Node.js against a `workspace` made
  from the window table (argv[1], a JSON file: {"current": ID, "windows": [{"pid", "internalId",
  "desktops", "onAllDesktops", "normalWindow"}]}), with Plasma 6's API or Plasma 5's; each
  `callDBus(service, path, interface, method, args…)` it makes is then made on the bus, after
  run() has returned, as KWin makes it.

Every step is appended to the record file (argv[2]) as a JSON line: {"loaded": path,
"plugin": …, "script": text}, {"ran": ID}, {"focused": internalId}, {"unloaded": plugin}.
--mode silent runs scripts without calling back; --mode garbage calls back with text that is no
JSON; --mode slow calls back after 2 s. Prints "READY" once it owns the name."""
import argparse
import json
import subprocess

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

HARNESS = r"""
const vm = require("vm");
const fs = require("fs");
const [table, code, plasma] = [JSON.parse(fs.readFileSync(process.argv[1])), fs.readFileSync(process.argv[2], "utf8"), process.argv[3]];
const calls = [];
let focused = null;
const windows = table.windows.map((w) => {
  const window = {pid: w.pid, internalId: w.internalId, normalWindow: w.normalWindow !== false, onAllDesktops: !!w.onAllDesktops};
  if (plasma === "5") window.desktop = w.onAllDesktops ? -1 : Number(w.desktops[0]);
  else window.desktops = w.desktops.map((id) => ({id: id}));
  return window;
});
const workspace = plasma === "5"
  ? {clientList: () => windows, currentDesktop: Number(table.current)}
  : {windowList: () => windows, currentDesktop: {id: table.current}};
Object.defineProperty(workspace, plasma === "5" ? "activeClient" : "activeWindow",
  {get: () => null, set: (w) => { focused = String(w.internalId); }, enumerable: true});
vm.runInNewContext(code, {workspace: workspace, callDBus: (...args) => calls.push(args), print: () => {}});
process.stdout.write(JSON.stringify({calls: calls, focused: focused}));
"""


class Service:
    def __init__(self, bus, arguments):
        self.bus, self.arguments = bus, arguments
        self.scripts = {}
        self.objects = []

    def record(self, entry):
        with open(self.arguments.record, "a") as f:
            f.write(json.dumps(entry) + "\n")

    def run(self, script_id):
        path, _ = self.scripts[script_id]
        self.record({"ran": script_id})
        result = subprocess.run(["node", "-e", HARNESS, "--", self.arguments.table, path, self.arguments.plasma],
                                capture_output=True, text=True, check=True)
        outcome = json.loads(result.stdout)
        if outcome["focused"] is not None:
            self.record({"focused": outcome["focused"]})
        mode = self.arguments.mode
        if mode == "silent":
            return
        for call in outcome["calls"]:
            service, path, interface, method, *values = call
            if mode == "garbage":
                values = ["{\"desktop\": [not json"]
            delay = 2000 if mode == "slow" else 0

            def make(service=service, path=path, interface=interface, method=method, values=values):
                target = self.bus.get_object(service, path, introspect=False)
                target.get_dbus_method(method, interface)(*[dbus.String(v) for v in values],
                                                          reply_handler=lambda *a: None, error_handler=lambda *a: None)
                return False

            GLib.timeout_add(delay, make)


class Scripting(dbus.service.Object):
    def __init__(self, bus, service):
        super().__init__(bus, "/Scripting")
        self.service = service

    @dbus.service.method("org.kde.kwin.Scripting", in_signature="ss", out_signature="i")
    def loadScript(self, path, plugin):
        service = self.service
        script_id = len(service.scripts)
        with open(path) as f:
            text = f.read()
        service.scripts[script_id] = (str(path), str(plugin))
        service.record({"loaded": str(path), "plugin": str(plugin), "script": text})
        object_path = f"/{script_id}" if service.arguments.plasma == "5" else f"/Scripting/Script{script_id}"
        service.objects.append(Script(self.connection, object_path, service, script_id))
        return script_id

    @dbus.service.method("org.kde.kwin.Scripting", in_signature="s", out_signature="b")
    def unloadScript(self, plugin):
        self.service.record({"unloaded": str(plugin)})
        return True


class Script(dbus.service.Object):
    def __init__(self, connection, path, service, script_id):
        super().__init__(connection, path)
        self.service, self.script_id = service, script_id

    @dbus.service.method("org.kde.kwin.Script", in_signature="", out_signature="")
    def run(self):
        self.service.run(self.script_id)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("table")
    parser.add_argument("record")
    parser.add_argument("--plasma", default="6")
    parser.add_argument("--mode", default="answer")
    arguments = parser.parse_args()
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName("org.kde.KWin", bus)
    service = Service(bus, arguments)
    Scripting(bus, service)
    print("READY", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
