#!/usr/bin/python3
"""A fake fprintd for Coffer's Biometry tests, on the D-Bus bus at a given address.

Usage: fake_fprintd.py BUS_ADDRESS STATE_FILE CALL_LOG

It owns net.reactivated.Fprint and serves the parts of fprintd's API that Coffer uses: the manager's
GetDefaultDevice, and one reader with ListEnrolledFingers, Claim, VerifyStart, VerifyStop, Release and
the VerifyStatus signal, with fprintd's error names. Each call reads STATE_FILE (JSON), so a test changes
the fake's behaviour between calls by rewriting it:

    device          false: GetDefaultDevice answers NoSuchDevice (default true)
    enrolled        the enrolled finger names; [] makes ListEnrolledFingers and VerifyStart answer
                    NoEnrolledPrints
    verify          the VerifyStatus results sent, 50 ms apart, after VerifyStart; [] sends nothing
    busy            true: Claim answers AlreadyInUse, as when another program holds the reader
    vanish          true: the fake leaves the bus (exits) 50 ms after VerifyStart

Every device call is appended to CALL_LOG, one line each ("Claim alice", "VerifyStop"). The fake prints
"ready" once it owns its name.
"""

import json
import sys

import dbus
import dbus.bus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

BUS_NAME = "net.reactivated.Fprint"
MANAGER_PATH = "/net/reactivated/Fprint/Manager"
MANAGER_INTERFACE = "net.reactivated.Fprint.Manager"
DEVICE_PATH = "/net/reactivated/Fprint/Device/0"
DEVICE_INTERFACE = "net.reactivated.Fprint.Device"
FINAL_RESULTS = {"verify-match", "verify-no-match", "verify-disconnected", "verify-unknown-error"}


class FprintError(dbus.DBusException):
    """One of fprintd's errors, net.reactivated.Fprint.Error.<kind>."""

    def __init__(self, kind, message):
        super().__init__(message, name="net.reactivated.Fprint.Error." + kind)


class Fake:
    def __init__(self, state_path, log_path, loop):
        self.state_path = state_path
        self.log_path = log_path
        self.loop = loop

    def state(self):
        with open(self.state_path, encoding="utf-8") as state:
            return json.load(state)

    def log(self, line):
        with open(self.log_path, "a", encoding="utf-8") as log:
            log.write(line + "\n")


class Manager(dbus.service.Object):
    def __init__(self, bus, fake):
        super().__init__(bus, MANAGER_PATH)
        self.fake = fake

    @dbus.service.method(MANAGER_INTERFACE, in_signature="", out_signature="o")
    def GetDefaultDevice(self):
        if not self.fake.state().get("device", True):
            raise FprintError("NoSuchDevice", "No devices available")
        return dbus.ObjectPath(DEVICE_PATH)


class Device(dbus.service.Object):
    def __init__(self, bus, fake):
        super().__init__(bus, DEVICE_PATH)
        self.fake = fake
        self.claimed_by = None
        self.verifying = False

    @dbus.service.method(DEVICE_INTERFACE, in_signature="s", out_signature="as")
    def ListEnrolledFingers(self, username):
        self.fake.log("ListEnrolledFingers " + username)
        fingers = self.fake.state().get("enrolled", [])
        if not fingers:
            raise FprintError("NoEnrolledPrints", "Failed to discover prints")
        return dbus.Array(fingers, signature="s")

    @dbus.service.method(DEVICE_INTERFACE, in_signature="s", out_signature="", sender_keyword="sender")
    def Claim(self, username, sender=None):
        self.fake.log("Claim " + username)
        if self.fake.state().get("busy", False) or self.claimed_by is not None:
            raise FprintError("AlreadyInUse", "Device was already claimed")
        self.claimed_by = sender

    @dbus.service.method(DEVICE_INTERFACE, in_signature="s", out_signature="", sender_keyword="sender")
    def VerifyStart(self, finger_name, sender=None):
        self.fake.log("VerifyStart " + finger_name)
        if self.claimed_by != sender:
            raise FprintError("ClaimDevice", "Device was not claimed before use")
        state = self.fake.state()
        if not state.get("enrolled", []):
            raise FprintError("NoEnrolledPrints", "No fingerprints enrolled")
        self.verifying = True
        for index, result in enumerate(state.get("verify", [])):
            GLib.timeout_add(50 * (index + 1), self.send_status, result)
        if state.get("vanish", False):
            GLib.timeout_add(50, self.fake.loop.quit)

    def send_status(self, result):
        if self.verifying:
            self.VerifyStatus(result, result in FINAL_RESULTS)
        return False

    @dbus.service.method(DEVICE_INTERFACE, in_signature="", out_signature="", sender_keyword="sender")
    def VerifyStop(self, sender=None):
        self.fake.log("VerifyStop")
        if self.claimed_by != sender:
            raise FprintError("ClaimDevice", "Device was not claimed before use")
        if not self.verifying:
            raise FprintError("NoActionInProgress", "No verification in progress")
        self.verifying = False

    @dbus.service.method(DEVICE_INTERFACE, in_signature="", out_signature="", sender_keyword="sender")
    def Release(self, sender=None):
        self.fake.log("Release")
        if self.claimed_by != sender:
            raise FprintError("ClaimDevice", "Device was not claimed before use")
        self.claimed_by = None
        self.verifying = False

    @dbus.service.signal(DEVICE_INTERFACE, signature="sb")
    def VerifyStatus(self, result, done):
        pass


def main():
    address, state_path, log_path = sys.argv[1:4]
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(address)
    loop = GLib.MainLoop()
    fake = Fake(state_path, log_path, loop)
    manager = Manager(bus, fake)
    device = Device(bus, fake)
    name = dbus.service.BusName(BUS_NAME, bus, do_not_queue=True)
    print("ready", flush=True)
    loop.run()
    del name, manager, device


if __name__ == "__main__":
    main()
