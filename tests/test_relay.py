"""The loopback relay of the LAN tests and the league's load benchmark (hardware/relay.py):
bytes both ways, another source address, and a network that drops and comes back."""
import socket
import threading

import pytest
from zonkcam.hardware.relay import Relay


@pytest.fixture
def echo():
    """A server on 127.0.0.1 that answers each line with the address it came from and the line."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)

    def serve():
        while True:
            try:
                conn, (host, _) = listener.accept()
            except OSError:
                return
            with conn:
                while data := conn.recv(1024):
                    conn.sendall(host.encode() + b" " + data)

    threading.Thread(target=serve, daemon=True).start()
    yield listener.getsockname()[1]
    listener.close()


def talk(port: int, text: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(text)
        return s.recv(1024)


def refused(port: int) -> bool:
    """Whether a new connection is closed at once: the relay's close reads as an end of stream,
    or as a reset where the line sent reached the closed socket first."""
    try:
        return talk(port, b"b") == b""
    except ConnectionResetError:
        return True


def test_bytes_go_both_ways_from_the_source_address(echo):
    with Relay(echo) as direct, Relay(echo, source="127.0.0.2") as lan:
        assert talk(direct.port, b"hi") == b"127.0.0.1 hi"
        assert talk(lan.port, b"hi") == b"127.0.0.2 hi"
        assert lan.url == f"http://127.0.0.1:{lan.port}"


def test_a_dropped_network_refuses_and_cuts_until_restored(echo):
    with Relay(echo) as relay:
        held = socket.create_connection(("127.0.0.1", relay.port), timeout=5)
        held.sendall(b"a")
        assert held.recv(1024) == b"127.0.0.1 a"
        relay.drop()
        assert held.recv(1024) == b""  # the open connection is cut
        assert refused(relay.port)  # a new one is closed at once
        relay.restore()
        assert talk(relay.port, b"c") == b"127.0.0.1 c"
        held.close()
