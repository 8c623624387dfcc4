"""Bots that misbehave, for the referee's tests: each plays legal decisions (the first of the
menu) until its moment comes, then breaks one rule in one way.

Run as a script, a bot that misbehaves at the level of the process (it answers ``new_game``,
then): ``python tests/referee_bots.py MODE [PIDFILE]`` with MODE ``hang`` (never answers),
``crash`` (exits), ``not-json``, ``huge`` (a line longer than the referee reads), ``spawn``
(starts a child that sleeps, writes both process IDs to PIDFILE, and hangs), ``wrong-answer``
(answers decide with ``{"ok": true}``), ``bad-utf8`` (bytes that are no UTF-8), ``deep``
(JSON nested deeper than a parser recurses), ``bad-hello`` (a key more in its new_game answer),
``detach`` (starts a grandchild in a session of its own by a double fork, ``setsid()``, which
keeps the bot's output open and sleeps; appends its process ID to PIDFILE; then plays the first
legal decision each turn), ``detach-die`` (the same grandchild, then exits at its first decision
without answering: the grandchild still holds its output), ``raise-3`` (plays the first legal
decision twice, then raises an error with a message at its 3rd decision: a traceback on its
standard error, exit code 1), ``chatty`` (writes :data:`CHATTER` bytes to its standard error
before each of its first two answers, and a line naming each answer, then plays the first legal
decision), ``chatty-3`` (the same, then at its 3rd decision a last line on its standard error
and an answer that is not JSON), ``segfault`` (kills itself with SIGSEGV at its first
decision).

``python tests/referee_bots.py heard LOG FAULT`` keeps every line it reads, as it read it,
appended to LOG, then misbehaves: FAULT ``start`` (exits before answering ``new_game``),
``crash`` (exits at its 3rd decision), ``hang`` (answers nothing at its 3rd), ``malformed``
(answers what is not JSON at its 3rd), ``throw`` (raises at its 3rd), ``illegal`` (a secret of
a card it does not hold at its first action from its 3rd decision on: ACT-SECRET-1): so a
test compares the request a forfeit keeps with what the bot read.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from typing import Any

from hanamikoji.oracle.core.bot import Bot, Request

LETTERS = "ABCDEFG"

#: The bytes the ``chatty`` bots write to their standard error before each of their first two
#: answers: 1 MB.
CHATTER = 1_000_000

#: What the ``raise-3`` bot's error says.
RAISED = "the bot's own bug, at its 3rd decision"


class Misbehaving(Bot):
    """Legal (the first decision of the menu) until :meth:`wrong` returns an answer."""

    def decide(self, request: Request) -> Any:
        wrong = self.wrong(request)
        return request.legal[0] if wrong is None else wrong

    def wrong(self, request: Request) -> Any:
        raise NotImplementedError


# --- Hanamikoji -----------------------------------------------------------------------------


def _acting(request: Request) -> bool:
    return request.view["phase"] == "action"


class ExtraCards(Misbehaving):
    """A secret of two cards (ACT-SECRET-1), in the decision JSON."""

    def wrong(self, request: Request) -> Any:
        if _acting(request):
            return {"action": "secret", "cards": request.view["hand"][:2]}
        return None


class ExtraCardsCourse(Misbehaving):
    """A secret of two cards as the course writes it, ``1AB``: the course's own referee plays
    it; the rules do not (ACT-SECRET-1)."""

    def wrong(self, request: Request) -> Any:
        if _acting(request):
            return "1" + "".join(LETTERS[g] for g in request.view["hand"][:2])
        return None


class UsedAction(Misbehaving):
    """A secret, then a second secret in the same round (TURN-3)."""

    def wrong(self, request: Request) -> Any:
        if not _acting(request):
            return None
        me = request.view["player"]
        card = request.view["hand"][0]
        if "secret" in request.view["used"][me]:
            return "1" + LETTERS[card]
        return {"action": "secret", "cards": [card]}


class NotInHand(Misbehaving):
    """A secret of a geisha it holds no card of (ACT-SECRET-1: the card must be in hand)."""

    def wrong(self, request: Request) -> Any:
        if _acting(request):
            missing = [g for g in range(7) if g not in request.view["hand"]]
            return {"action": "secret", "cards": [missing[0]]}
        return None


def _pending(request: Request, kind: str) -> dict[str, Any] | None:
    pending = request.view["pending"]
    return pending if request.view["phase"] == "response" and pending["action"] == kind else None


class PickNotOffered(Misbehaving):
    """Takes from a gift a geisha the gift does not hold (ACT-GIFT-2)."""

    def wrong(self, request: Request) -> Any:
        gift = _pending(request, "gift")
        if gift is not None:
            return {"response": "gift", "pick": min(set(range(7)) - set(gift["cards"]))}
        return None


class SetNotOffered(Misbehaving):
    """Takes from a competition a pair that is neither of its sets (ACT-COMP-2)."""

    def wrong(self, request: Request) -> Any:
        competition = _pending(request, "competition")
        if competition is not None:
            sets = [sorted(s) for s in competition["sets"]]
            pair = next(list(p) for p in itertools.combinations_with_replacement(range(7), 2)
                        if list(p) not in sets)
            return "-" + "".join(LETTERS[g] for g in pair)
        return None


class WrongSizePick(Misbehaving):
    """Takes two cards of a gift (ACT-GIFT-2), in the course's notation."""

    def wrong(self, request: Request) -> Any:
        gift = _pending(request, "gift")
        if gift is not None:
            return "-" + "".join(LETTERS[g] for g in gift["cards"][:2])
        return None


class WrongSizePickJSON(Misbehaving):
    """Takes two cards of a gift (ACT-GIFT-2), in the decision JSON."""

    def wrong(self, request: Request) -> Any:
        gift = _pending(request, "gift")
        if gift is not None:
            return {"response": "gift", "pick": gift["cards"][:2]}
        return None


class PlayerKey(Misbehaving):
    """A legal action with a key the decision does not have, ``player`` (malformed; the cards
    are right, so no rule: it once got the competition's ACT-COMP-1)."""

    def wrong(self, request: Request) -> Any:
        if _acting(request):
            action = next((d for d in request.legal if d.get("action") == "competition"),
                          request.legal[0])
            return {**action, "player": request.view["player"]}
        return None


class PickWhenActing(Misbehaving):
    """Answers a gift no one offered where its action is due (TURN-3: the decision due is an
    action; it once got ACT-GIFT-2), in the decision JSON."""

    def wrong(self, request: Request) -> Any:
        return {"response": "gift", "pick": 2} if _acting(request) else None


class PickWhenActingCourse(Misbehaving):
    """As :class:`PickWhenActing`, in the course's notation: ``-C``."""

    def wrong(self, request: Request) -> Any:
        return "-C" if _acting(request) else None


class Garbage(Misbehaving):
    """Answers words: neither a decision nor the course's notation (COMP-3: an action is its
    digit and its cards)."""

    def wrong(self, request: Request) -> Any:
        return "pass"


class NotADecision(Misbehaving):
    """Answers a JSON object that is no decision (malformed; no rule)."""

    def wrong(self, request: Request) -> Any:
        return {"move": "anything"}


class Raises(Misbehaving):
    """Raises on its first decision: served as a process, that process dies."""

    def wrong(self, request: Request) -> Any:
        raise RuntimeError("a bug in the bot")


# --- Maiko ----------------------------------------------------------------------------------


class FlipNotFaceDown(Misbehaving):
    """Flips a space that holds no face-down tile (MK-FLIP-2)."""

    def wrong(self, request: Request) -> Any:
        if any(d["kind"] == "flip" for d in request.legal):
            shown = [i for i, s in enumerate(request.view["board"]) if s != "down"]
            if shown:
                return {"kind": "flip", "space": shown[0]}
        return None


class EndsTurnEarly(Misbehaving):
    """Ends its turn before a mismatch, a friend or the ending step (MK-TURN-2)."""

    def wrong(self, request: Request) -> Any:
        return {"kind": "end-turn"}


class StopsNoVisit(Misbehaving):
    """Stops a One-san visit it never began (MK-TUTOR-ONESAN-1)."""

    def wrong(self, request: Request) -> Any:
        return {"kind": "one-san-stop"}


class SweepsNoRow(Misbehaving):
    """Decides a row discard that is not pending (MK-ROW-3)."""

    def wrong(self, request: Request) -> Any:
        if request.view["row_discard"] is None:
            return {"kind": "sweep", "item": 0, "colour": None}
        return None


class SabantoEmpty(Misbehaving):
    """Sabanto on a maiko board with nothing on it (MK-TUTOR-3)."""

    def wrong(self, request: Request) -> Any:
        me = request.view["player"]
        if not any(request.view["maiko_boards"][me]):
            return {"kind": "sabanto", "item": 0, "colour": "white"}
        return None


class FlipOffTheBoard(Misbehaving):
    """Flips a space the board does not have (MK-COMP-5)."""

    def wrong(self, request: Request) -> Any:
        return {"kind": "flip", "space": len(request.view["board"]) + 20}


class MaikoPlayerKey(Misbehaving):
    """A legal decision with a key the decision does not have, ``player`` (malformed; no
    rule, as in Hanamikoji)."""

    def wrong(self, request: Request) -> Any:
        return {**request.legal[0], "player": request.view["player"]}


class MaikoGarbage(Misbehaving):
    """Answers words (malformed; no rule)."""

    def wrong(self, request: Request) -> Any:
        return "flip them all"


# --- bots that misbehave as processes --------------------------------------------------------


def _detach(pidfile: str) -> None:
    """Start a grandchild that leaves this bot's session (a double fork and ``setsid()``, as a
    daemon does) and sleeps, holding the bot's standard output; append its process ID to
    ``pidfile`` before returning."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        os.setsid()
        if os.fork() == 0:
            os.write(write, f"{os.getpid()}\n".encode())
            os.close(write)
            while True:
                time.sleep(3600)
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    with os.fdopen(read) as said:
        grandchild = said.read()
    with open(pidfile, "a") as out:
        out.write(grandchild)


def _plays(pidfile: str, die: bool) -> None:
    """``detach`` and ``detach-die``: the first legal decision each turn, or an exit."""
    _detach(pidfile)
    print(json.dumps({"ok": True}), flush=True)
    for line in sys.stdin:
        if die:
            os._exit(0)
        print(json.dumps({"decision": json.loads(line)["legal"][0]}), flush=True)


def _talks(mode: str) -> None:
    """``raise-3``, ``chatty``, ``chatty-3``, ``segfault``: the first legal decision each turn
    until the mode's moment comes."""
    print(json.dumps({"ok": True}), flush=True)
    for number, line in enumerate(sys.stdin, 1):
        if mode == "raise-3" and number == 3:
            raise RuntimeError(RAISED)
        if mode == "segfault":
            os.kill(os.getpid(), signal.SIGSEGV)
        if mode.startswith("chatty"):
            if number <= 2:
                sys.stderr.write("x" * CHATTER + "\n")
            if mode == "chatty-3" and number == 3:
                sys.stderr.write("giving up at answer 3\n")
                sys.stderr.flush()
                print("not JSON", flush=True)
                continue
            sys.stderr.write(f"answer {number}\n")
            sys.stderr.flush()
        print(json.dumps({"decision": json.loads(line)["legal"][0]}), flush=True)


#: What the ``heard`` bot raises with ``throw``.
HEARD_THROWS = "the heard bot's own bug, at its 3rd decision"


def _heard(log: str, fault: str) -> None:
    """The ``heard`` bot: every line read appended to ``log`` (its bytes as read), then
    ``fault`` (see the module's docstring)."""

    def heard(line: bytes) -> None:
        with open(log, "ab") as out:
            out.write(line)

    heard(sys.stdin.buffer.readline())
    if fault == "start":
        os._exit(4)
    print(json.dumps({"ok": True}), flush=True)
    for number, line in enumerate(iter(sys.stdin.buffer.readline, b""), 1):
        heard(line)
        request = json.loads(line)
        answer: Any = request["legal"][0]
        if number >= 3:
            if fault == "crash":
                os._exit(3)
            if fault == "hang":
                time.sleep(3600)
            if fault == "malformed":
                print("not JSON", flush=True)
                continue
            if fault == "throw":
                raise RuntimeError(HEARD_THROWS)
            if fault == "illegal" and request["view"]["phase"] == "action":
                missing = [g for g in range(7) if g not in request["view"]["hand"]]
                answer = {"action": "secret", "cards": [missing[0]]}
        print(json.dumps({"decision": answer}), flush=True)


def _raw(mode: str, pidfile: str | None) -> None:
    hello = sys.stdin.readline()
    if not hello:
        return
    if mode in ("raise-3", "chatty", "chatty-3", "segfault"):
        _talks(mode)
        return
    if mode in ("detach", "detach-die"):
        assert pidfile is not None
        _plays(pidfile, mode == "detach-die")
        return
    print(json.dumps({"ok": True, "ready": True} if mode == "bad-hello" else {"ok": True}),
          flush=True)
    if mode == "spawn":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        assert pidfile is not None
        with open(pidfile + ".tmp", "w") as out:
            out.write(f"{os.getpid()} {child.pid}\n")
        os.rename(pidfile + ".tmp", pidfile)
    elif mode == "hang" and pidfile is not None:
        with open(pidfile + ".tmp", "w") as out:
            out.write(f"{os.getpid()}\n")
        os.rename(pidfile + ".tmp", pidfile)
    sys.stdin.readline()
    if mode in ("hang", "spawn"):
        while True:
            time.sleep(3600)
    if mode == "crash":
        os._exit(3)
    if mode == "not-json":
        print("{'decision': 'not JSON'}", flush=True)
    elif mode == "huge":
        sys.stdout.write("[" * 200_000)
        sys.stdout.flush()
        time.sleep(3600)
    elif mode == "wrong-answer":
        print(json.dumps({"ok": True}), flush=True)
    elif mode == "bad-utf8":
        sys.stdout.buffer.write(b'{"decision": "\xff\xfe"}\n')
        sys.stdout.flush()
    elif mode == "deep":
        print("[" * 20_000 + "]" * 20_000, flush=True)
    sys.stdin.readline()


if __name__ == "__main__":
    if sys.argv[1] == "heard":
        _heard(sys.argv[2], sys.argv[3])
    else:
        _raw(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
