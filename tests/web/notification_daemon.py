"""A desktop's notification server for the browser tests: a private D-Bus session bus and,
on it, a small org.freedesktop.Notifications service (the Desktop Notifications
Specification, 1.2).

Chromium on Linux shows a website's notification through this service when one owns
its name: it calls ``Notify`` and listens for ``ActionInvoked``. So a test reads what
Chromium showed (``shown``) and clicks it as a person would (``click``): the signal
makes Chromium dispatch a real, trusted ``notificationclick`` to the service worker,
the only event in which a worker may open a window. The bus is dbus-daemon from
Debian's dbus package; the service speaks D-Bus through jeepney (pure Python).
"""

from __future__ import annotations

import queue
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from jeepney import DBusAddress, HeaderFields, MessageType, new_error, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
CLOSED_BY_CALL = 3  # NotificationClosed's reason: closed by CloseNotification
# A bus of its own, with no services to start on demand (Chromium asks for the
# accessibility bus, which is then simply not there) and nothing but this test on it.
BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir={folder}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


@dataclass
class Shown:
    """One notification as Chromium handed it to the desktop."""

    id: int
    summary: str
    body: str
    actions: list[str]
    closed: bool = False


@dataclass
class NotificationServer:
    """The service's state: what was shown, and the clicks waiting to be sent."""

    shown: list[Shown] = field(default_factory=list)
    _clicks: queue.Queue = field(default_factory=queue.Queue)
    _last_id: int = 0
    # What passed on the bus, oldest first: (monotonic time, method or "click", its body),
    # for a failing test to say what Chromium did and when.
    log: list[tuple[float, str, tuple]] = field(default_factory=list)

    def next_id(self) -> int:
        """A new notification's number: never one given before (the specification's rule)."""
        self._last_id += 1
        return self._last_id

    def click(self, notification: Shown) -> None:
        """Click the notification's body (its "default" action), as on a desktop."""
        self._clicks.put(notification.id)

    def click_until_closed(self, notification: Shown, tries: int = 5) -> None:
        """Click, and wait for Chromium to act on it by closing the notification (the
        service worker's handler does; so does Chromium itself when it has no stored
        data for the notice); click again if it did not (Chromium drops a click that
        comes in before it has read the answer to its Notify call, which a busy machine
        can delay)."""
        for _ in range(tries):
            self.click(notification)
            try:
                self.wait_closed(notification, timeout=4.0)
                return
            except AssertionError:
                continue
        raise AssertionError(f"{tries} clicks, and the browser never closed {notification}: "
                             "its worker's notificationclick did not run")

    def calls(self) -> list[str]:
        """The log as lines: milliseconds since the first call, what, and its notice."""
        start = self.log[0][0] if self.log else 0.0
        return [f"+{(at - start) * 1000:.0f} ms {what} {body[:4] if what == 'Notify' else body}"
                for at, what, body in self.log]

    def wait_closed(self, notification: Shown, timeout: float = 10.0) -> None:
        """Wait until the browser closes ``notification`` (CloseNotification)."""
        deadline = time.monotonic() + timeout
        while not notification.closed and time.monotonic() < deadline:
            time.sleep(0.02)
        assert notification.closed, f"{notification} is still shown"

    def wait_for(self, summary: str, body: str = "", timeout: float = 10.0) -> Shown:
        """The notification on screen with this title (and ``body`` in its text), waiting
        up to ``timeout`` seconds for it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [n for n in self.shown if n.summary == summary and body in n.body
                     and not n.closed]
            if found:
                return found[-1]
            time.sleep(0.05)
        raise AssertionError(f"no notification {summary!r}; shown: {self.shown}")


def _serve(conn, server: NotificationServer, stop: threading.Event) -> None:
    emitter = DBusAddress(PATH, interface=NAME)
    while not stop.is_set():
        while not server._clicks.empty():
            number = server._clicks.get()
            server.log.append((time.monotonic(), "click", (number,)))
            conn.send(new_signal(emitter, "ActionInvoked", "us", (number, "default")))
        try:
            msg = conn.receive(timeout=0.05)
        except TimeoutError:
            continue
        if msg.header.message_type != MessageType.method_call:
            continue
        member = msg.header.fields.get(HeaderFields.member)
        server.log.append((time.monotonic(), member, msg.body))
        if member == "GetCapabilities":
            conn.send(new_method_return(msg, "as", (["actions", "body"],)))
        elif member == "GetServerInformation":
            conn.send(new_method_return(msg, "ssss", ("vpsleuth-tests", "vpsleuth", "1", "1.2")))
        elif member == "Notify":
            _app, replaces, _icon, summary, body, actions, _hints, _timeout = msg.body
            number = replaces or server.next_id()
            # A notice that replaces another (the same tag) takes its place and number.
            server.shown = [n for n in server.shown if n.id != replaces]
            server.shown.append(Shown(number, summary, body, list(actions)))
            conn.send(new_method_return(msg, "u", (number,)))
        elif member == "CloseNotification":
            for shown in server.shown:
                shown.closed = shown.closed or shown.id == msg.body[0]
            conn.send(new_method_return(msg))
            conn.send(new_signal(emitter, "NotificationClosed", "uu",
                                 (msg.body[0], CLOSED_BY_CALL)))
        else:
            conn.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod"))


@contextmanager
def notification_server() -> Iterator[tuple[str, NotificationServer]]:
    """A private session bus with the notification service on it; yields (the bus address
    for DBUS_SESSION_BUS_ADDRESS, the server)."""
    folder = tempfile.mkdtemp(prefix="vpsleuth-dbus-")
    config = Path(folder) / "bus.conf"
    config.write_text(BUS_CONFIG.format(folder=folder))
    daemon = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork",
                               "--print-address=1"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        address = daemon.stdout.readline().strip()
        conn = open_dbus_connection(bus=address)
        reply = conn.send_and_get_reply(message_bus.RequestName(NAME))
        assert reply.body == (1,), f"could not own {NAME}: {reply}"  # 1: primary owner
        server, stop = NotificationServer(), threading.Event()
        thread = threading.Thread(target=_serve, args=(conn, server, stop), daemon=True)
        thread.start()
        try:
            yield address, server
        finally:
            stop.set()
            thread.join()
            conn.close()
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
        daemon.stdout.close()
        shutil.rmtree(folder, ignore_errors=True)
