"""The harness reads the other engine's answers itself, straight from the pipe: an answer is
one whole line however the engine's writes cut it, a line that comes when every request has its
answer is one nobody asked for, a line longer than the limit is refused, the end of the output
ends the reading, and reading to the end after a stop takes the answers still owed.

Nothing here waits on the clock: every test writes what the reader is to find before it reads,
and "not there yet" is asked with a timeout of zero, which answers at once."""

from __future__ import annotations

import os

import pytest

from hanamikoji.oracle.core import diff_engine as harness


@pytest.fixture
def pipe():
    """A channel on the read end of a pipe, and the write end."""
    read, write = os.pipe()
    stream = os.fdopen(read, "rb")
    channel = harness._Channel(stream)
    yield channel, write
    stream.close()
    try:
        os.close(write)
    except OSError:
        pass


def test_an_answer_cut_in_pieces_is_one_line(pipe):
    channel, write = pipe
    channel.asked = 1
    os.write(write, b'{"ok":')
    assert channel.answer(0) is None  # half a line is not an answer yet
    os.write(write, b"true}\n")
    assert channel.answer(0) == b'{"ok":true}\n'
    assert channel.read == 1


def test_a_second_line_in_the_same_write_is_one_nobody_asked_for(pipe):
    channel, write = pipe
    channel.asked = 1
    os.write(write, b'{"ok":true}\n{"ok":true}\n')
    assert channel.answer(0) == b'{"ok":true}\n'
    channel.look_for_extra()  # before the next request is counted
    assert channel.extra == b'{"ok":true}\n'
    assert channel.answer(0) is harness._EXTRA


def test_a_line_before_any_request_is_one_nobody_asked_for(pipe):
    channel, write = pipe
    os.write(write, b"hello\n")
    assert channel.answer(0) is harness._EXTRA
    assert channel.extra == b"hello\n"


def test_the_end_of_the_output_ends_the_reading(pipe):
    channel, write = pipe
    channel.asked = 2
    os.write(write, b'{"ok":true}\n{"ok"')
    os.close(write)
    assert channel.answer(0) == b'{"ok":true}\n'
    assert channel.answer(0) == b'{"ok"'  # the rest, without its newline, is the next line
    assert channel.answer(0) is harness._EOF


def test_a_line_longer_than_the_limit_is_refused(pipe, monkeypatch):
    channel, write = pipe
    monkeypatch.setattr(harness, "LINE_LIMIT", 8)
    channel.asked = 3
    os.write(write, b"12345678\n")  # the limit, its newline not counted: an answer
    assert channel.answer(0) == b"12345678\n"
    os.write(write, b"123456789")  # one byte more, no newline yet: already too long
    assert channel.answer(0) is harness._TOO_LONG


def test_draining_takes_the_answers_still_owed_then_keeps_a_line_nobody_asked_for(pipe):
    channel, write = pipe
    channel.asked = 1
    os.write(write, b'{"ok":true}\nagain\nmore\n')
    os.close(write)
    channel.drain(0)
    assert channel.read == 1 and channel.extra == b"again\n"


def test_draining_an_output_that_ends_cleanly_finds_nothing(pipe):
    channel, write = pipe
    channel.asked = 1
    os.write(write, b'{"ok":true}\n')
    os.close(write)
    channel.drain(0)
    assert channel.extra is None and channel.ended


def test_a_descriptor_past_select_s_limit_is_read(pipe):
    """A program that embeds the harness may hold more than a thousand files: the answers of a
    pipe numbered past select()'s limit (1024) are read as any other's."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft <= 1100:
        pytest.skip(f"this process may hold only {soft} files")
    channel, write = pipe
    high = os.dup2(channel.fd, 1100)
    stream = os.fdopen(high, "rb")
    try:
        far = harness._Channel(stream)
        far.asked = 1
        os.write(write, b'{"ok":true}\n')
        assert far.answer(0) == b'{"ok":true}\n'
    finally:
        stream.close()
