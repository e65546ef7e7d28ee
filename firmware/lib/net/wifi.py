"""Joining Wi-Fi without waiting: network.WLAN polled once per pass.

    wifi = Wifi(network, "cafe", password, on_change)
    wifi.poll(now) -> True while joined

`WLAN.connect()` returns at once on the Pico W and the ESP32; the join is
then watched through `isconnected()` and `status()`. A wrong password, a
missing access point or a join that takes longer than JOIN_TIMEOUT_MS
reports once through on_change("wifi_failed", why) and waits (Backoff)
before the next try; a drop reports on_change("wifi_lost", ...). The
password is given to `connect()` and kept nowhere else.

Built only with an ssid (net.venue: ssid "" means the board's network is
already up, the unix port or a wired board, and `network` is never imported).
"""
from time import ticks_diff

from micropython import const

JOIN_TIMEOUT_MS = const(20000)
_IDLE = const(0)
_JOINING = const(1)
_UP = const(2)
_WAITING = const(3)


class Wifi:
    def __init__(self, network_module, ssid: str, password: str, on_change, backoff) -> None:
        self._ssid = ssid
        self._password = password
        self._on_change = on_change
        self._backoff = backoff
        self._state = _IDLE
        self._since = 0
        self._retry_at = 0
        self._wlan = network_module.WLAN(network_module.STA_IF)
        self._wlan.active(True)  # at boot, before the prop's loop: may take a moment
        self._wrong = getattr(network_module, "STAT_WRONG_PASSWORD", -3)
        self._no_ap = getattr(network_module, "STAT_NO_AP_FOUND", -2)
        self._fail = getattr(network_module, "STAT_CONNECT_FAIL", -1)

    def poll(self, now: int) -> bool:
        """True while joined; else one cheap step of joining (never waits)."""
        state = self._state
        if state == _UP:
            if self._wlan.isconnected():
                return True
            self._failed(now, "wifi_lost", "Wi-Fi %s dropped" % self._ssid)
            return False
        if state == _WAITING:
            if ticks_diff(now, self._retry_at) < 0:
                return False
            state = _IDLE
        if state == _IDLE:
            try:
                self._wlan.connect(self._ssid, self._password)
            except OSError as exc:
                self._failed(now, "wifi_failed", "cannot start joining %s (%s)" % (self._ssid, exc))
                return False
            self._state = _JOINING
            self._since = now
            return False
        # joining
        if self._wlan.isconnected():
            self._state = _UP
            self._backoff.reset()
            self._on_change("wifi_up", "joined %s" % self._ssid)
            return True
        status = self._wlan.status()
        if status == self._wrong:
            self._failed(now, "wifi_failed", "wrong Wi-Fi password for %s (net.password)" % self._ssid)
        elif status == self._no_ap:
            self._failed(now, "wifi_failed", "no Wi-Fi called %s in range (net.ssid)" % self._ssid)
        elif status == self._fail:
            self._failed(now, "wifi_failed", "joining %s failed" % self._ssid)
        elif ticks_diff(now, self._since) >= JOIN_TIMEOUT_MS:
            self._failed(now, "wifi_failed",
                         "joining %s took more than %d s" % (self._ssid, JOIN_TIMEOUT_MS // 1000))
        return False

    def _failed(self, now: int, kind: str, why: str) -> None:
        try:
            self._wlan.disconnect()
        except OSError:
            pass
        delay = self._backoff.next(now)
        self._retry_at = self._backoff.retry_at
        self._state = _WAITING
        self._on_change(kind, "%s; next try in %d s" % (why, (delay + 999) // 1000))
