"""Bots that misbehave in a long-lived process, for ``check``'s run of calls (tests/test_check_bot.py).

``python tests/long_run_bots.py MODE [FILE]``: a bot of the whole bot protocol (a ``new_game``
starts a game, in the same process as the games before it) that answers the first legal
decision, but:

* ``crash-46``: at its 46th ``decide`` in this process, writes :data:`ABORT` to its standard
  error and exits with code 134 (a WebAssembly runtime's abort, after many calls);
* ``debug``: writes :data:`DEBUG` to its standard output before every answer (a
  ``console.log`` left in a bot);
* ``throw-5``: raises :data:`THROWN` at its 5th ``decide`` in this process (a traceback, exit
  code 1);
* ``illegal-7``: every 7th ``decide`` where it acts, a secret of two cards (ACT-SECRET-1);
* ``hang-once``: at its 10th ``decide``, if FILE does not exist, writes its process ID there
  and never answers (the next process, started after the time-out, plays on).

It imports only the standard library's json, os, sys and time: it starts fast.
"""

from __future__ import annotations

import json
import os
import sys
import time

ABORT = "abort: at ~lib/rt/itcms.ts:128 (memory freed twice)"
DEBUG = "debug: thinking about it"
THROWN = "the bot's own bug, at its 5th call"


def _answer(mode: str, calls: int, request: dict, marker: str | None) -> object:
    if mode == "crash-46" and calls == 46:
        sys.stderr.write(ABORT + "\n")
        sys.stderr.flush()
        os._exit(134)
    if mode == "throw-5" and calls == 5:
        raise RuntimeError(THROWN)
    if mode == "hang-once" and calls == 10 and marker and not os.path.exists(marker):
        with open(marker + ".tmp", "w") as out:
            out.write(f"{os.getpid()}\n")
        os.rename(marker + ".tmp", marker)
        while True:
            time.sleep(3600)
    view = request["view"]
    if mode == "illegal-7" and calls % 7 == 0 and view.get("phase") == "action":
        return {"action": "secret", "cards": view["hand"][:2]}
    return request["legal"][0]


def main() -> None:
    mode = sys.argv[1]
    marker = sys.argv[2] if len(sys.argv) > 2 else None
    calls = 0
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "new_game":
            print(json.dumps({"ok": True}), flush=True)
            continue
        calls += 1
        decision = _answer(mode, calls, request, marker)
        if mode == "debug":
            print(DEBUG, flush=True)
        print(json.dumps({"decision": decision}), flush=True)


if __name__ == "__main__":
    main()
