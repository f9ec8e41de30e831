#!/usr/bin/env python3
"""A D-Bus service for choosy's tests, on the bus of DBUS_SESSION_BUS_ADDRESS: it owns the
name given as argv[1] and, at /org/choosy/Test, interface org.choosy.Test, answers

- Echo(v) -> v: the value it was sent, as it was sent (byte arrays stay byte arrays);
- Fail(): an error named org.choosy.Test.Error.Failed;
- Sleep(d seconds): replies after that long (to see a caller's timeout).

It prints "READY" once it owns the name, and runs until killed."""
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

INTERFACE = "org.choosy.Test"


class Failed(dbus.exceptions.DBusException):
    _dbus_error_name = "org.choosy.Test.Error.Failed"


class Test(dbus.service.Object):
    @dbus.service.method(INTERFACE, in_signature="v", out_signature="v", byte_arrays=True)
    def Echo(self, value):
        return value

    @dbus.service.method(INTERFACE, in_signature="", out_signature="")
    def Fail(self):
        raise Failed("failing as asked")

    @dbus.service.method(INTERFACE, in_signature="d", out_signature="")
    def Sleep(self, seconds):
        time.sleep(seconds)


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(sys.argv[1], bus)
    Test(bus, "/org/choosy/Test")
    print("READY", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
