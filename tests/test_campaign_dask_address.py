"""A ``--scheduler`` address that is no Dask scheduler: one line on stderr and exit 2, within the
documented ``--scheduler-timeout``, and nothing printed later (Dask's client, made and dropped,
printed a traceback from its destructor some 20 s on). Each command runs as a process of its
own, so what Dask prints at exit is seen. The listener that accepts TCP and says nothing is a
socket of this test on 127.0.0.1."""

from __future__ import annotations

import os
import pathlib
import re
import socket
import subprocess
import sys
import types

import pytest

pytest.importorskip("distributed", reason="Dask distributed is not installed (pip install "
                                          "'.[dask]' in a clone of hanamikoji)")

from hanamikoji import campaign as C  # noqa: E402
from hanamikoji.runtime.base import UsageError  # noqa: E402

HANAMIKOJI = [sys.executable, "-m", "hanamikoji"]
#: A bound on the command's run, far beyond its --scheduler-timeout of 1 s: a command that hangs
#: fails the test instead of hanging it.
BOUND = 120


def refused(address: str, *more: str) -> str:
    """The one line a command says about ``address``, checked to be one line and exit 2."""
    done = subprocess.run([*HANAMIKOJI, "simulate", "--games", "10", "--scheduler", address,
                           "--scheduler-timeout", "1", *more], capture_output=True, text=True,
                          timeout=BOUND)
    assert (done.returncode, done.stdout) == (2, ""), done
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("hanamikoji simulate: error: --scheduler "), done.stderr
    return done.stderr


@pytest.fixture
def silent_listener():
    """A port of 127.0.0.1 that accepts TCP connections (the kernel completes them into the
    backlog) and never says a word."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"


def test_a_port_that_is_no_dask_scheduler_is_one_line_not_a_hang(silent_listener):
    said = refused(silent_listener)
    assert "cannot reach a Dask scheduler there within 1 s" in said


def test_a_port_that_answers_something_else_is_one_line():
    """A server of another protocol (it greets every connection with a line of text, and then
    closes it)."""
    import threading

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)

        def greet() -> None:
            while True:
                try:
                    connection, _ = listener.accept()
                except OSError:  # the test closed the listener
                    return
                with connection:
                    connection.sendall(b"220 hello, this is no Dask scheduler\r\n" * 64)

        threading.Thread(target=greet, daemon=True).start()
        said = refused(f"tcp://127.0.0.1:{listener.getsockname()[1]}")
    assert "cannot reach a Dask scheduler there within 1 s" in said


def test_the_environment_variable_is_checked_the_same(silent_listener):
    done = subprocess.run([*HANAMIKOJI, "tournament", "random", "random", "--deals", "1",
                           "--scheduler-timeout", "1"], capture_output=True, text=True,
                          timeout=BOUND, env={**os.environ,
                                              C.SCHEDULER_VARIABLE: silent_listener})
    assert (done.returncode, done.stderr.count("\n")) == (2, 1), done
    assert "cannot reach a Dask scheduler" in done.stderr


@pytest.mark.parametrize("address, why", [
    ("foo://bar", "the scheme foo:// is not one"),
    ("tcp://", "not an address"),
    ("tcp://localhost:abc", "not an address"),
    (" ", "not an address"),
    ("inproc://x", "the scheme inproc:// is not one"),
    ("ucx://127.0.0.1:8786", "the scheme ucx:// is not one"),
])
def test_an_address_dask_cannot_use_is_one_line(address, why):
    assert why in refused(address)


@pytest.mark.parametrize("address, why", [
    ("tls://127.0.0.1:8786", "the scheme tls:// is not one"),
    ("tcp://127.0.0.1:70000", "the port must be from 1 to 65535, not 70000"),
    ("tcp://127.0.0.1:8786/x", "not an address"),
    ("tcp://-x:8786", "not an address"),
])
def test_more_addresses_are_refused_by_the_same_check(address, why):
    with pytest.raises(UsageError, match=why):
        C.check_address(address)


@pytest.mark.parametrize("address", ["tcp://10.0.0.5:8786", "10.0.0.5:8786", "tcp://localhost",
                                     "tcp://[::1]:8786", "tcp://node-3.cluster.example:8786"])
def test_the_addresses_dask_scheduler_prints_are_taken(address):
    assert C.check_address(address) == address


def test_the_timeout_option_is_checked():
    done = subprocess.run([*HANAMIKOJI, "simulate", "--scheduler-timeout", "0"],
                          capture_output=True, text=True, timeout=BOUND)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "--scheduler-timeout must be from 0.1 to 3600 seconds, not 0" in done.stderr


class _FailingClient:
    """A client whose start fails after it made its event loop: it must be closed."""

    closed: list[float] = []

    def __init__(self, address, **how):
        self.status = "connecting"
        raise OSError("the scheduler went away")

    def close(self, timeout=None):
        _FailingClient.closed.append(timeout)


def test_a_client_that_fails_to_start_is_closed(monkeypatch):
    monkeypatch.setattr(C, "probe", lambda address, seconds: "Scheduler")
    fake = types.SimpleNamespace(Client=_FailingClient)
    with pytest.raises(UsageError, match="OSError: the scheduler went away"):
        C._client(fake, "tcp://127.0.0.1:8786", 3.0)
    assert _FailingClient.closed == [3.0]


def test_the_docs_example_is_what_the_command_prints():
    doc = (pathlib.Path(__file__).resolve().parent.parent / "docs" / "campaigns.md").read_text()
    found = re.search(r"\$ hanamikoji simulate --scheduler (\S+)\n(.*)\n", doc)
    assert found is not None
    done = subprocess.run([*HANAMIKOJI, "simulate", "--scheduler", found.group(1)],
                          capture_output=True, text=True, timeout=BOUND)
    assert (done.returncode, done.stderr) == (2, found.group(2) + "\n")
