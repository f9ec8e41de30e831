#!/usr/bin/env python3
"""A terminal for choosy's tests: on the bus of DBUS_SESSION_BUS_ADDRESS it owns the name
argv[1] and implements the terminal intent, org.freedesktop.Terminal1, at the object path the
Desktop Entry spec derives from that name. Each LaunchCommand call is appended to the file
argv[2] as one JSON line: every byte string as a list of its bytes, the rest as it came. It runs
nothing. It prints "READY" once it owns the name, and runs until killed."""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib


def plain(value):
    """A D-Bus value as JSON: bytes as lists of numbers, containers recursively."""
    if isinstance(value, (bytes, bytearray, dbus.ByteArray)):
        return list(bytes(value))
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, dbus.Boolean):
        return bool(value)
    if isinstance(value, (dbus.String, str)):
        return str(value)
    return value


class Terminal(dbus.service.Object):
    def __init__(self, bus, path, record):
        super().__init__(bus, path)
        self.record = record

    @dbus.service.method("org.freedesktop.Terminal1", in_signature="aa{sv}aya{sv}a{sv}", out_signature="",
                         byte_arrays=True)
    def LaunchCommand(self, commands, desktop_entry, options, platform_data):
        with open(self.record, "a") as out:
            out.write(json.dumps({"commands": plain(commands), "desktop_entry": plain(desktop_entry),
                                  "options": plain(options), "platform_data": plain(platform_data)}) + "\n")


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = sys.argv[1]
    keep = dbus.service.BusName(name, bus)
    Terminal(bus, "/" + name.replace(".", "/").replace("-", "_"), sys.argv[2])
    print("READY", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
