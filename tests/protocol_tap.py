"""A tap on the diff protocol, for the tests: ``python tests/protocol_tap.py DIR -- COMMAND...``
runs the adapter COMMAND, passes each request line of the harness to it and its answer line
back, byte for byte, and appends the pair to ``DIR/<pid>.log`` (``> request``, ``< answer``),
one file per process (``diff`` starts a second process for its seeded-chance check).

The harness sees the adapter's behaviour unchanged: the tap answers nothing itself and ends
when the harness closes its input or the adapter stops answering.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: protocol_tap.py DIR -- COMMAND...\n")
        return 2
    log_path = pathlib.Path(argv[0]) / f"{os.getpid()}.log"
    child = subprocess.Popen(argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    with open(log_path, "ab") as log:
        try:
            for line in sys.stdin.buffer:
                if not line.strip():
                    continue
                child.stdin.write(line)
                child.stdin.flush()
                answer = child.stdout.readline()
                if not answer:
                    break
                log.write(b"> " + line.rstrip(b"\r\n") + b"\n< " + answer.rstrip(b"\r\n") + b"\n")
                log.flush()
                sys.stdout.buffer.write(answer)
                sys.stdout.buffer.flush()
        except (BrokenPipeError, KeyboardInterrupt):
            pass
    try:
        child.stdin.close()
    except BrokenPipeError:
        pass
    return child.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
