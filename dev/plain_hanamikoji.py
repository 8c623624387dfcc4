"""Plain mutable code for Hanamikoji: the yardstick of ``hanamikoji bench --only plain``.

The toolkit's ``simulate`` and ``validate`` should be at least twice as fast as a straightforward
program of the same rules (issue 36). This is that program, written as a programmer would write
a first engine: dicts and lists changed in place, ``json.loads``, ``random.Random``, no attrs, no
caching, no tables. It is used ONLY as the yardstick, never by the toolkit, and
tests/test_dev_plain.py checks that it is honest: on the same records its verdicts (valid,
illegal, malformed) and results are the toolkit's.

It checks less than the toolkit (no duplicate keys, no message saying where or why, no rule ID),
which makes it faster, never slower, so a ratio against it is not flattered.

    python dev/plain_hanamikoji.py validate FILE.jsonl    # a JSON line a record
    python dev/plain_hanamikoji.py simulate GAMES SEED     # a summary line
"""

from __future__ import annotations

import itertools
import json
import random
import sys

CHARM = [2, 2, 2, 3, 3, 4, 5]
DECK = [g for g in range(7) for _ in range(CHARM[g])]
ACTIONS = ("secret", "trade-off", "gift", "competition")
SIZES = {"secret": 1, "trade-off": 2, "gift": 3, "competition": 4}
MAX_ROUNDS = {"standard": None, "italian-three-rounds": 3}


class Malformed(Exception):
    pass


class Illegal(Exception):
    pass


def new_game(variant, first_player):
    return {"variant": variant, "first": first_player, "round": 0, "markers": [None] * 7,
            "result": None}


def start_round(game, removed, hands, draws):
    """A round dealt: hands as lists of cards, the first player draws."""
    if sorted([removed] + hands[0] + hands[1] + draws) != DECK:
        raise Illegal("the deal is not the 21 cards")
    starter = (game["first"] + game["round"]) % 2
    game["hands"] = [list(hands[0]), list(hands[1])]
    game["hands"][starter].append(draws[0])
    game["deck"] = list(draws[1:])
    game["used"] = [[], []]
    game["kept"] = [[0] * 7, [0] * 7]  # secrets and the cards won, per geisha
    game["turn"] = 0


def take(hand, cards):
    for card in cards:
        if card not in hand:
            raise Illegal("a card not in the hand")
        hand.remove(card)


def play_turn(game, player, action, cards, pick):
    """One turn: the action, the opponent's answer, the next draw or the scoring."""
    if player != (game["first"] + game["round"] + game["turn"]) % 2:
        raise Illegal("out of turn")
    if action in game["used"][player]:
        raise Illegal("action used twice")
    game["used"][player].append(action)
    take(game["hands"][player], cards)
    mine, theirs = game["kept"][player], game["kept"][1 - player]
    if action == "secret":
        mine[cards[0]] += 1
    elif action == "gift":
        if pick not in cards:
            raise Illegal("the pick is not in the gift")
        rest = list(cards)
        rest.remove(pick)
        theirs[pick] += 1
        for card in rest:
            mine[card] += 1
    elif action == "competition":
        sets = [cards[:2], cards[2:]]
        for card in sets[pick]:
            theirs[card] += 1
        for card in sets[1 - pick]:
            mine[card] += 1
    game["turn"] += 1
    if game["turn"] < 8:
        game["hands"][(game["first"] + game["round"] + game["turn"]) % 2].append(
            game["deck"].pop(0))
    else:
        score_round(game)


def score_round(game):
    markers = game["markers"]
    for g in range(7):
        a, b = game["kept"][0][g], game["kept"][1][g]
        if a > b:
            markers[g] = 0
        elif b > a:
            markers[g] = 1
    geisha = [markers.count(0), markers.count(1)]
    charm = [sum(CHARM[g] for g in range(7) if markers[g] == p) for p in (0, 1)]
    by_charm = [c >= 11 for c in charm]
    by_geisha = [n >= 4 for n in geisha]
    reached = [p for p in (0, 1) if by_charm[p] or by_geisha[p]]
    if len(reached) == 2:
        game["result"] = {"winner": by_charm.index(True), "reason": "charm-over-geisha"}
    elif reached:
        p = reached[0]
        game["result"] = {"winner": p, "reason": "charm" if by_charm[p] else "geisha"}
    elif MAX_ROUNDS[game["variant"]] == game["round"] + 1:
        held = [sorted((CHARM[g] for g in range(7) if markers[g] == p), reverse=True)
                for p in (0, 1)]
        if charm[0] != charm[1]:
            game["result"] = {"winner": 0 if charm[0] > charm[1] else 1,
                              "reason": "round-limit-charm"}
        elif held[0] != held[1]:
            game["result"] = {"winner": 0 if held[0] > held[1] else 1,
                              "reason": "round-limit-highest-geisha"}
        else:
            game["result"] = {"winner": None, "reason": "shared"}
    game["round"] += 1


# --- validate --------------------------------------------------------------------------------


def is_int(value, low, high):
    return type(value) is int and low <= value <= high


def cards_list(value, n):
    if type(value) is not list or len(value) != n or not all(is_int(v, 0, 6) for v in value):
        raise Malformed("expected a list of cards")
    return value


def check_keys(obj, keys, optional=()):
    if type(obj) is not dict:
        raise Malformed("expected an object")
    if not set(keys) <= set(obj) <= set(keys) | set(optional):
        raise Malformed("wrong keys")


def parse_turn(turn):
    if type(turn) is not dict or turn.get("action") not in SIZES:
        raise Malformed("expected a turn")
    action = turn["action"]
    if action in ("secret", "trade-off"):
        check_keys(turn, ("player", "action", "cards"))
        cards, pick = cards_list(turn["cards"], SIZES[action]), None
    elif action == "gift":
        check_keys(turn, ("player", "action", "cards", "pick"))
        cards, pick = cards_list(turn["cards"], 3), turn["pick"]
        if not is_int(pick, 0, 6):
            raise Malformed("expected a geisha")
    else:
        check_keys(turn, ("player", "action", "sets", "pick"))
        sets = turn["sets"]
        if type(sets) is not list or len(sets) != 2:
            raise Malformed("expected two sets")
        cards, pick = cards_list(sets[0], 2) + cards_list(sets[1], 2), turn["pick"]
        if not is_int(pick, 0, 1):
            raise Malformed("expected 0 or 1")
    if not is_int(turn["player"], 0, 1):
        raise Malformed("expected a player")
    return turn["player"], action, cards, pick


def parse(record):
    """The record's rounds as (removed, hands, draws, turns), or Malformed."""
    check_keys(record, ("format", "variant", "first_player", "rounds"), ("result",))
    if record["format"] != "hanamikoji-record/1" or record["variant"] not in MAX_ROUNDS:
        raise Malformed("format or variant")
    if not is_int(record["first_player"], 0, 1) or type(record["rounds"]) is not list:
        raise Malformed("first player or rounds")
    rounds = []
    for rnd in record["rounds"]:
        check_keys(rnd, ("removed", "hands", "draws", "turns"))
        if not is_int(rnd["removed"], 0, 6):
            raise Malformed("removed")
        hands = rnd["hands"]
        if type(hands) is not list or len(hands) != 2:
            raise Malformed("hands")
        hands = [cards_list(hands[0], 6), cards_list(hands[1], 6)]
        draws = cards_list(rnd["draws"], 8)
        if type(rnd["turns"]) is not list:
            raise Malformed("turns")
        rounds.append((rnd["removed"], hands, draws, [parse_turn(t) for t in rnd["turns"]]))
    result = record.get("result")
    if "result" in record:
        check_keys(result, ("winner", "reason"))
        if result["winner"] is not None and not is_int(result["winner"], 0, 1):
            raise Malformed("winner")
        if result["reason"] not in ("geisha", "charm", "charm-over-geisha", "round-limit-charm",
                                    "round-limit-highest-geisha", "shared"):
            raise Malformed("reason")
    return record["variant"], record["first_player"], rounds, result


def replay(record):
    variant, first, rounds, declared = parse(record)
    game = new_game(variant, first)
    for removed, hands, draws, turns in rounds:
        if game["result"] is not None:
            raise Illegal("the record goes on after the end")
        start_round(game, removed, hands, draws)
        if len(turns) != 8:
            raise Illegal("a round has 8 turns")
        for player, action, cards, pick in turns:
            play_turn(game, player, action, cards, pick)
    if game["result"] is None:
        raise Illegal("no result")
    if declared is not None and declared != game["result"]:
        raise Illegal("not the declared result")
    return game["result"], game["round"]


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
                       "rule": None, "round": None, "turn": None, "path": None,
                       "message": None, "result": None}
            try:
                result, rounds = replay(json.loads(line, object_pairs_hook=no_duplicates))
                who = ("a shared victory" if result["winner"] is None
                       else f"a win for player {result['winner']}")
                verdict["message"] = (f"{who} by {result['reason']} after {rounds} "
                                      f"round{'s' if rounds > 1 else ''}")
                verdict["result"] = result
            except (Malformed, ValueError):
                verdict["status"] = "malformed"
            except Illegal:
                verdict["status"] = "illegal"
            out.write(json.dumps(verdict) + "\n")


# --- simulate --------------------------------------------------------------------------------


def legal_turns(hand, used):
    """Every distinct (action, cards) the player may play, cards as sorted lists."""
    hand = sorted(hand)
    moves = []
    for action in ACTIONS:
        if action in used:
            continue
        for cards in dict.fromkeys(itertools.combinations(hand, SIZES[action])):
            if action == "competition":
                a, b, c, d = cards
                splits = {(a, b, c, d), (a, c, b, d), min((a, d, b, c), (b, c, a, d))}
                moves.extend((action, list(split)) for split in sorted(splits))
            else:
                moves.append((action, list(cards)))
    return moves


def random_game(rng):
    game = new_game("standard", 0)
    while game["result"] is None:
        deck = list(DECK)
        rng.shuffle(deck)
        start_round(game, deck[0], [deck[1:7], deck[7:13]], deck[13:21])
        for _ in range(8):
            player = (game["first"] + game["round"] + game["turn"]) % 2
            action, cards = rng.choice(legal_turns(game["hands"][player], game["used"][player]))
            pick = None
            if action == "gift":
                pick = rng.choice(cards)
            elif action == "competition":
                pick = rng.randrange(2)
            play_turn(game, player, action, cards, pick)
    return game


def simulate(games, seed):
    rng = random.Random(seed)
    wins = [0, 0, 0]
    rounds = 0
    for _ in range(games):
        game = random_game(rng)
        winner = game["result"]["winner"]
        wins[2 if winner is None else winner] += 1
        rounds += game["round"]
    print(f"{games} games: wins {wins[0]} {wins[1]}, shared {wins[2]}, rounds {rounds}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["validate"]:
        validate(sys.argv[2])
    elif sys.argv[1:2] == ["simulate"]:
        simulate(int(sys.argv[2]), int(sys.argv[3]))
    else:
        sys.exit("usage: plain_hanamikoji.py validate FILE | simulate GAMES SEED")
