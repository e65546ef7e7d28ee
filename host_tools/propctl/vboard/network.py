"""The virtual board's `network`: a WLAN that joins, refuses or drops as a test says.

Sockets are the unix port's own (the host's network); only joining Wi-Fi is
played here. The access point is described by `vboard_wifi.json` in the
board's folder (or the file named by $VBOARD_WIFI), read at every connect()
and, while joined, at most every POLL_MS:

    {"ssid": "cafe", "password": "right one", "join_ms": 800, "up": true}

connect(ssid, password) joins after join_ms when ssid and password match and
"up" is true; a wrong password gives STAT_WRONG_PASSWORD after join_ms, an
unknown ssid STAT_NO_AP_FOUND. Writing "up": false drops a joined WLAN (and
makes joins fail with STAT_NO_AP_FOUND) until it is true again. No file: no
access point at all.
"""
import json
from time import host_env, ticks_diff, ticks_ms

STA_IF = 0
AP_IF = 1
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_WRONG_PASSWORD = -3
STAT_NO_AP_FOUND = -2
STAT_CONNECT_FAIL = -1
STAT_GOT_IP = 3
POLL_MS = 50


def _access_point():
    path = host_env("VBOARD_WIFI") or "vboard_wifi.json"
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


class WLAN:
    def __init__(self, interface=STA_IF) -> None:
        self._active = False
        self._status = STAT_IDLE
        self._joined = False
        self._join_at = 0
        self._outcome = STAT_IDLE
        self._checked = 0
        self.joins = 0

    def active(self, on=None):
        if on is None:
            return self._active
        self._active = bool(on)
        if not on:
            self.disconnect()
        return None

    def connect(self, ssid, key=None) -> None:
        if not self._active:
            raise OSError("WLAN not active")
        self.joins += 1
        ap = _access_point()
        self._joined = False
        self._status = STAT_CONNECTING
        self._join_at = ticks_ms()
        if ap is None or not ap.get("up", True) or ap.get("ssid") != ssid:
            self._outcome = STAT_NO_AP_FOUND
        elif ap.get("password") != key:
            self._outcome = STAT_WRONG_PASSWORD
        else:
            self._outcome = STAT_GOT_IP
        self._delay = int(ap.get("join_ms", 500)) if ap else 500

    def disconnect(self) -> None:
        self._joined = False
        self._status = STAT_IDLE

    def status(self, *args):
        self._settle()
        return self._status

    def isconnected(self) -> bool:
        self._settle()
        return self._joined

    def _settle(self) -> None:
        now = ticks_ms()
        if self._status == STAT_CONNECTING and ticks_diff(now, self._join_at) >= self._delay:
            self._status = self._outcome
            self._joined = self._outcome == STAT_GOT_IP
        elif self._joined and ticks_diff(now, self._checked) >= POLL_MS:
            self._checked = now
            ap = _access_point()
            if ap is None or not ap.get("up", True):
                self._joined = False
                self._status = STAT_NO_AP_FOUND

    def ifconfig(self, *args):
        return ("10.0.0.2", "255.255.255.0", "10.0.0.1", "10.0.0.1")

    def config(self, *args, **kwargs):
        return None
