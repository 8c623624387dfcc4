"""Plain mutable code for Maiko: the yardstick of ``hanamikoji bench --only plain --game maiko``.

As dev/plain_hanamikoji.py for Hanamikoji: Maiko's rules written as a programmer writes a first
engine (one dict of lists changed in place, ``json.loads``, ``random.Random``, no attrs, no
caching, the face-down spaces found by a scan), used ONLY as the yardstick. tests/test_dev_plain.py
checks that on the same records its verdicts and results are the toolkit's. It checks less than
the toolkit (no message, no rule, no place), which makes it faster, never slower.

    python dev/plain_maiko.py validate FILE.jsonl    # a JSON line a record
    python dev/plain_maiko.py simulate GAMES SEED     # 2-player games, a summary line
"""

from __future__ import annotations

import json
import random
import sys

COLOURS = ["white", "purple", "pink", "green"]
TILE = {f"{c}-{i}": 9 * n + i for n, c in enumerate(COLOURS) for i in range(9)}
TILE["friend"] = FRIEND = 36
DOWN, UP, EMPTY = 0, 1, 2
ROWS = [(0, 1, 2), (3, 4, 5), (6, 7, 8)]
COLUMNS = [(0, 3, 6), (1, 4, 7), (2, 5, 8)]
SPACE_KINDS = ("flip", "danna", "one-san")
KEYS = {"flip": {"kind", "space"}, "danna": {"kind", "space"}, "one-san": {"kind", "space"},
        "oka-san": {"kind", "owner", "item"}, "sabanto": {"kind", "item", "colour"},
        "sweep": {"kind", "item", "colour"}, "one-san-stop": {"kind"}, "end-turn": {"kind"}}


class Malformed(Exception):
    pass


class Illegal(Exception):
    pass


class Over(Exception):
    """The game has ended (raised out of the transition that ends it)."""


def tiles_in_play(players, colours, removed):
    counts = [2] * 36 + [9]
    if players == 2:
        for i in range(9):
            counts[9 * removed + i] = 0
        counts[FRIEND] -= 3
    return sorted(code for code in range(37) for _ in range(counts[code]))


def new_game(players, colours, first, layout):
    return {"players": players, "colours": colours, "first": first, "layout": layout,
            "spaces": [DOWN] * len(layout), "boards": [[0] * 36 for _ in range(players)],
            "hands": [1] * players, "pool": 16 - players, "cards": [0, 0, 0, 0],
            "current": first, "turn": 0, "phase": "first", "pending": None, "visited": False,
            "looks": [], "resume": None, "sweep": None, "triggered": None, "result": None}


def filled(board, item):
    return any(board[4 * item:4 * item + 4])


def finish(game, reason):
    scores, own = [], []
    for board, colour in zip(game["boards"], game["colours"]):
        mine = sum(board[colour::4])
        scores.append(mine - (sum(board) - mine))
        own.append(mine)
    best = max(zip(scores, own))
    winners = [p for p in range(game["players"]) if (scores[p], own[p]) == best]
    game["phase"] = "over"
    game["result"] = {"winners": winners, "reason": reason, "scores": scores, "own_colour": own}
    raise Over


def gain_token(game, player):
    if game["pool"]:
        game["pool"] -= 1
        game["hands"][player] += 1
        return
    for tutor in range(4):
        if game["cards"][tutor]:
            game["cards"][tutor] -= 1
            game["hands"][player] += 1
            return


def static(game):
    if any(game["hands"]):
        return False
    seen = set()
    for space, state in enumerate(game["spaces"]):
        if state == DOWN:
            code = game["layout"][space]
            if code == FRIEND or code % 9 in seen:
                return False
            seen.add(code % 9)
    return True


def can_visit(game):
    p = game["current"]
    if game["visited"] or not game["hands"][p]:
        return False
    if DOWN in game["spaces"] or any(game["boards"][p]):
        return True
    colour = game["colours"][p]
    return any(board[4 * i + colour] for owner, board in enumerate(game["boards"]) if owner != p
               for i in range(9))


def enter(game, phase):
    if phase in ("first", "second"):
        if DOWN not in game["spaces"]:
            finish(game, "no-face-down-tile")
        if phase == "first" and game["triggered"] is None and static(game):
            finish(game, "static")
        game["phase"] = phase
    elif phase == "ending":
        game["phase"] = "ending"
        if not can_visit(game):
            end_turn(game)
    else:
        game["phase"] = phase


def end_turn(game):
    if game["pending"] is not None:
        game["spaces"][game["pending"]] = DOWN
        game["pending"] = None
    game["visited"] = False
    game["looks"] = []
    following = (game["current"] + 1) % game["players"]
    if game["triggered"] is not None and following == game["first"]:
        finish(game, "full-board")
    game["current"] = following
    game["turn"] += 1
    enter(game, "first")


def place(game, tiles, back_to):
    p = game["current"]
    board = game["boards"][p]
    item = tiles[0] % 9
    was_empty = not filled(board, item)
    for code in tiles:
        board[4 * item + code // 9] += 1
    row_done = False
    if was_empty:
        if all(filled(board, i) for i in COLUMNS[item % 3] if i != item):
            gain_token(game, p)
        row_done = all(filled(board, i) for i in ROWS[item // 3] if i != item)
    following = back_to
    if all(filled(board, i) for i in range(9)):
        if game["triggered"] is None:
            game["triggered"] = p
        following = "ending"
        if game["pending"] is not None:
            game["spaces"][game["pending"]] = DOWN
            game["pending"] = None
    if row_done:
        game["phase"] = "sweep"
        game["sweep"] = [item // 3, 0]
        game["resume"] = following
        return
    enter(game, following)


def pay(game, tutor):
    if game["visited"] or not game["hands"][game["current"]]:
        raise Illegal("no visit")
    game["hands"][game["current"]] -= 1
    game["cards"][tutor] += 1
    game["visited"] = True


def friend(game, space):
    game["spaces"][space] = UP
    gain_token(game, game["current"])
    end_turn(game)


def face_down(game, space):
    if space >= len(game["spaces"]) or game["spaces"][space] != DOWN:
        raise Illegal("not a face-down tile")


def play(game, step):
    """One decision, checked, in place; Over when it ends the game."""
    kind, phase, p = step["kind"], game["phase"], game["current"]
    if phase == "look":
        if kind == "one-san-stop":
            game["looks"] = []
            resume, game["resume"] = game["resume"], None
            enter(game, resume)
            return
        if kind != "one-san":
            raise Illegal("a look or the stop")
        space = step["space"]
        face_down(game, space)
        if space in game["looks"]:
            raise Illegal("looked at already")
        game["looks"].append(space)
        if len(game["looks"]) == 6:
            game["looks"] = []
            resume, game["resume"] = game["resume"], None
            enter(game, resume)
        return
    if phase == "sweep":
        row, index = game["sweep"]
        item = ROWS[row][index]
        if kind != "sweep" or step["item"] != item:
            raise Illegal("the row discard")
        if step["colour"] is not None:
            slot = 4 * item + COLOURS.index(step["colour"])
            if not game["boards"][p][slot]:
                raise Illegal("no such tile")
            game["boards"][p][slot] -= 1
        if index == 2:
            resume, game["resume"], game["sweep"] = game["resume"], None, None
            enter(game, resume)
        else:
            game["sweep"][1] += 1
        return
    if kind == "flip":
        space = step["space"]
        if phase == "ending":
            raise Illegal("flips no more")
        face_down(game, space)
        code = game["layout"][space]
        if code == FRIEND:
            friend(game, space)
        elif phase == "first":
            game["spaces"][space] = UP
            game["pending"] = space
            enter(game, "second")
        else:
            first = game["pending"]
            other = game["layout"][first]
            if other % 9 == code % 9:
                game["spaces"][first] = game["spaces"][space] = EMPTY
                game["pending"] = None
                place(game, (other, code), "first")
            else:
                end_turn(game)
    elif kind == "end-turn":
        if phase != "ending":
            raise Illegal("not the ending step")
        end_turn(game)
    elif kind == "danna":
        space = step["space"]
        pay(game, 0)
        face_down(game, space)
        code = game["layout"][space]
        if code == FRIEND:
            friend(game, space)
        else:
            game["spaces"][space] = EMPTY
            place(game, (code,), phase)
    elif kind == "oka-san":
        owner, item = step["owner"], step["item"]
        pay(game, 1)
        colour = game["colours"][p]
        if owner == p or owner >= game["players"] or not game["boards"][owner][4 * item + colour]:
            raise Illegal("no such tile")
        game["boards"][owner][4 * item + colour] -= 1
        place(game, (9 * colour + item,), phase)
    elif kind == "one-san":
        space = step["space"]
        pay(game, 2)
        face_down(game, space)
        game["resume"] = phase
        game["looks"] = [space]
        game["phase"] = "look"
    elif kind == "sabanto":
        item, colour = step["item"], COLOURS.index(step["colour"])
        pay(game, 3)
        if not game["boards"][p][4 * item + colour]:
            raise Illegal("no such tile")
        game["boards"][p][4 * item + colour] -= 1
        enter(game, phase)
    else:
        raise Illegal("no such decision now")


# --- validate --------------------------------------------------------------------------------


def is_int(value, low, high):
    return type(value) is int and low <= value <= high


def check_step(step):
    if type(step) is not dict or step.get("kind") not in KEYS or set(step) != KEYS[step["kind"]]:
        raise Malformed("a step")
    kind = step["kind"]
    if kind in SPACE_KINDS and not is_int(step["space"], 0, 80):
        raise Malformed("a space")
    if kind == "oka-san" and not (is_int(step["owner"], 0, 3) and is_int(step["item"], 0, 8)):
        raise Malformed("oka-san")
    if kind in ("sabanto", "sweep"):
        if not is_int(step["item"], 0, 8):
            raise Malformed("an item")
        if step["colour"] not in COLOURS and not (kind == "sweep" and step["colour"] is None):
            raise Malformed("a colour")


def parse(record):
    if type(record) is not dict or record.get("format") != "maiko-record/1":
        raise Malformed("format")
    if not {"format", "options", "first_player", "layout", "turns"} <= set(record) <= {
            "format", "options", "first_player", "layout", "turns", "result"}:
        raise Malformed("keys")
    options = record["options"]
    if type(options) is not dict or set(options) != {"players", "colours", "removed_colour"}:
        raise Malformed("options")
    players = options["players"]
    names = options["colours"].split(",") if options["colours"] else COLOURS[:players]
    if not is_int(players, 2, 4) or any(n not in COLOURS for n in names) or len(names) != players:
        raise Malformed("players or colours")
    if not is_int(record["first_player"], 0, 3) or type(record["turns"]) is not list:
        raise Malformed("first player or turns")
    layout = record["layout"]
    if type(layout) is not list or any(type(t) is not str or t not in TILE for t in layout):
        raise Malformed("layout")
    for turn in record["turns"]:
        if type(turn) is not dict or set(turn) != {"player", "steps"}:
            raise Malformed("a turn")
        if not is_int(turn["player"], 0, 3) or type(turn["steps"]) is not list:
            raise Malformed("a turn")
        for step in turn["steps"]:
            check_step(step)
    if "result" in record:
        result = record["result"]
        if type(result) is not dict or set(result) != {"winners", "reason", "scores",
                                                       "own_colour"}:
            raise Malformed("result")
    colours = [COLOURS.index(n) for n in names]
    if len(set(colours)) != players:
        raise Illegal("a colour twice")
    removed = options["removed_colour"]
    if players == 2:
        removed = COLOURS.index(removed) if removed else min(set(range(4)) - set(colours))
        if removed in colours:
            raise Illegal("the removed colour is played")
    elif removed:
        raise Illegal("only 2 players remove a colour")
    return players, colours, removed


def replay(record):
    players, colours, removed = parse(record)
    first = record["first_player"]
    if first >= players:
        raise Illegal("no such player")
    layout = [TILE[name] for name in record["layout"]]
    if sorted(layout) != tiles_in_play(players, colours, removed):
        raise Illegal("not the tiles in play")
    game = new_game(players, colours, first, layout)
    turns = record["turns"]
    t = k = -1
    try:
        enter(game, "first")
        for t, turn in enumerate(turns):
            for k, step in enumerate(turn["steps"]):  # noqa: B007 (k: where it ended)
                if game["turn"] != t or turn["player"] != game["current"]:
                    raise Illegal("out of turn")
                play(game, step)
    except Over:
        if (t, k) != ((len(turns) - 1, len(turns[-1]["steps"]) - 1) if turns else (-1, -1)):
            raise Illegal("the record goes on after the end") from None
    if game["result"] is None or record.get("result", game["result"]) != game["result"]:
        raise Illegal("no result, or not the declared one")
    return game["result"], len(record["turns"])


def no_duplicates(pairs):
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise Malformed("a key twice")
    return obj


def validate(path):
    """A verdict a record, as ``validate --json`` writes it (the same line for a valid record;
    for another, its status and nothing of where or why)."""
    out = sys.stdout
    with open(path, "rb") as lines:
        for index, line in enumerate(lines):
            verdict = {"index": index, "source": path, "line": index + 1, "status": "valid",
                       "rule": None, "turn": None, "step": None, "path": None,
                       "message": None, "result": None}
            try:
                result, turns = replay(json.loads(line, object_pairs_hook=no_duplicates))
                winners = result["winners"]
                who = (f"a win for player {winners[0]}" if len(winners) == 1 else
                       f"a victory shared by players {', '.join(map(str, winners))}")
                verdict["message"] = (f"{who} by {result['reason']} after {turns} "
                                      f"turn{'s' if turns != 1 else ''}")
                verdict["result"] = result
            except (Malformed, ValueError, TypeError, KeyError, IndexError, AttributeError):
                verdict["status"] = "malformed"
            except Illegal:
                verdict["status"] = "illegal"
            out.write(json.dumps(verdict) + "\n")


# --- simulate --------------------------------------------------------------------------------


def legal(game):
    """Every decision open to the player to act, as steps."""
    phase, p = game["phase"], game["current"]
    down = [s for s, v in enumerate(game["spaces"]) if v == DOWN]
    if phase == "look":
        return ([{"kind": "one-san", "space": s} for s in down if s not in game["looks"]]
                + [{"kind": "one-san-stop"}])
    if phase == "sweep":
        row, index = game["sweep"]
        item = ROWS[row][index]
        return [{"kind": "sweep", "item": item, "colour": None}] + [
            {"kind": "sweep", "item": item, "colour": COLOURS[c]} for c in range(4)
            if game["boards"][p][4 * item + c]]
    menu = [] if phase == "ending" else [{"kind": "flip", "space": s} for s in down]
    if not game["visited"] and game["hands"][p]:
        colour = game["colours"][p]
        menu += [{"kind": "danna", "space": s} for s in down]
        menu += [{"kind": "oka-san", "owner": o, "item": i}
                 for o, board in enumerate(game["boards"]) if o != p for i in range(9)
                 if board[4 * i + colour]]
        menu += [{"kind": "one-san", "space": s} for s in down]
        menu += [{"kind": "sabanto", "item": k // 4, "colour": COLOURS[k % 4]}
                 for k in range(36) if game["boards"][p][k]]
    if phase == "ending":
        menu.append({"kind": "end-turn"})
    return menu


def simulate(games, seed):
    rng = random.Random(seed)
    reasons: dict[str, int] = {}
    turns = 0
    for _ in range(games):
        layout = tiles_in_play(2, [0, 1], 2)
        rng.shuffle(layout)
        game = new_game(2, [0, 1], 0, layout)
        try:
            enter(game, "first")
            while True:
                play(game, rng.choice(legal(game)))
        except Over:
            pass
        reasons[game["result"]["reason"]] = reasons.get(game["result"]["reason"], 0) + 1
        turns += game["turn"] + 1
    print(f"{games} games: {', '.join(f'{k} {v}' for k, v in sorted(reasons.items()))}; "
          f"turns {turns}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["validate"]:
        validate(sys.argv[2])
    elif sys.argv[1:2] == ["simulate"]:
        simulate(int(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit("usage: plain_maiko.py validate FILE | simulate GAMES SEED")
