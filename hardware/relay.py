"""A loopback TCP relay for tests and benchmarks (standard library only).

It forwards 127.0.0.1:`port` to a server on 127.0.0.1:`target`. Its connections to the server
come from `source`: from 127.0.0.2 the server sees another machine (only 127.0.0.1 and ::1 are
the kiosk itself), so a LAN phone is tested without a LAN. `drop()` takes the network down
(connections refused, open ones cut) until `restore()`: a kiosk's league link losing the
network. Used by tests/test_kiosk_lan.py and benchmarks/league_load.py.
"""
from __future__ import annotations

import contextlib
import socket
import threading


class Relay:
    def __init__(self, target: int, source: str = "127.0.0.1", backlog: int = 512) -> None:
        self.target, self.source = target, source
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(backlog)
        self.listener.settimeout(0.2)  # to see `close` between connections
        self.port: int = self.listener.getsockname()[1]
        self.down = False
        self.open: set[socket.socket] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="relay", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self.listener.accept()  # blocking, as the listener has a timeout
            except TimeoutError:
                continue
            except OSError:
                return
            if self.down:
                client.close()
                continue
            server = socket.socket()
            try:
                server.bind((self.source, 0))
                server.connect(("127.0.0.1", self.target))
            except OSError:
                server.close()
                client.close()
                continue
            self.open |= {client, server}
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := a.recv(65536):
                b.sendall(data)
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            self.open.discard(s)

    def drop(self) -> None:
        """The network goes down: new connections are closed at once, open ones cut."""
        self.down = True
        for s in list(self.open):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def restore(self) -> None:
        self.down = False

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.listener.close()
        self.drop()

    def __enter__(self) -> Relay:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
