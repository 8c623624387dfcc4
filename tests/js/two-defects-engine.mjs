// A JavaScript engine with the two rule defects `hanamikoji diff` found in a public TypeScript
// engine (issue 34), for the done-test of `hanamikoji check` and tests/test_js_two_defects.py:
// the reference engine of docs/examples/reference-engine.mjs, except that
//
// - VAR-IT-2: under the variant italian-three-rounds, when the third round's scoring reaches
//   no goal and one player has more charm, it calls the game a draw ({"winner": null,
//   "reason": "shared"}) where that player wins ("round-limit-charm"); the tiebreaks of equal
//   charm (VAR-IT-3, VAR-IT-4) and every goal (END-2..4) it gets right;
// - UPDATE-4: the starter of round r > 0 is r % 2 whoever started the game, so when the second
//   player starts the game (first_player 1), the second player also starts round 2 (round 1,
//   counted from 0), and every later round is started by the wrong player; with first_player
//   0 it alternates as the rules say.
//
// Both defects are on by default; DEFECTS=VAR-IT-2 or DEFECTS=UPDATE-4 in the environment keeps
// only the one named (a comma-separated list), so a test can see each found alone.
//
// How it plays UPDATE-4 with the reference underneath: at the deal of round 1 of a game that
// player 1 started, it restarts the reference with first_player 0 and replays a round 0 with
// the same scored sides (so the same markers and scores), then reports first_player 1 in every
// view as before. The reference then starts rounds 1, 2, 3, ... with players 1, 0, 1, ...: the
// defect's order.

import { createEngine as createReference } from "../../docs/examples/reference-engine.mjs";

const DEFECTS = new Set((process.env.DEFECTS || "VAR-IT-2,UPDATE-4").split(","));
// Cards of each geisha in the game (COMP-1): geisha g has FULL_DECK[g] item cards.
const FULL_DECK = [2, 2, 2, 3, 3, 4, 5];

// The VAR-IT-2 defect: a win on charm at the round limit becomes a draw.
function drawnAtTheLimit(result) {
  return DEFECTS.has("VAR-IT-2") && result && result.reason === "round-limit-charm"
    ? { winner: null, reason: "shared" } : result;
}

// A round 0 whose scoring shows `sides` (two lists of 8 geisha numbers) with player `starter`
// to begin: a deal and its decisions, as engine/hanamikoji/construct.py's round_for_sides
// builds them. Each side is cut into the owner's secret (1), the cards kept from their own gift
// (2) and competition (2), and those taken from the opponent's gift (1) and competition (2).
function roundForSides(sides, starter) {
  const rest = FULL_DECK.map((n, g) => n - sides[0].filter((c) => c === g).length
                                        - sides[1].filter((c) => c === g).length);
  const restPool = rest.flatMap((n, g) => Array(n).fill(g));
  const removed = restPool.pop();
  const shares = sides.map((side) => {
    const pool = [...side].sort((a, b) => a - b);
    return { secret: pool.slice(0, 1), giftKept: pool.slice(1, 3), compKept: pool.slice(3, 5),
             giftTaken: pool.slice(5, 6), compTaken: pool.slice(6, 8) };
  });
  const plans = [0, 1].map((p) => {
    const mine = shares[p];
    const theirs = shares[1 - p];
    return [
      [{ action: "secret", cards: mine.secret }, null],
      [{ action: "trade-off", cards: restPool.slice(2 * p, 2 * p + 2) }, null],
      [{ action: "gift", cards: [...mine.giftKept, ...theirs.giftTaken] },
       { response: "gift", pick: theirs.giftTaken[0] }],
      [{ action: "competition", sets: [mine.compKept, theirs.compTaken] },
       { response: "competition", pick: theirs.compTaken }],
    ];
  });
  // Each player's cards in the order of their actions: six dealt, the rest drawn in time.
  const flows = plans.map((plan) => plan.flatMap(([action]) =>
    action.cards || action.sets.flat()));
  const player = (t) => (t % 2 === 0 ? starter : 1 - starter);
  const draws = [];
  const decisions = [];
  for (let t = 0; t < 8; t += 1) {
    draws.push(flows[player(t)][6 + Math.floor(t / 2)]);
    const [action, answer] = plans[player(t)][Math.floor(t / 2)];
    decisions.push(action);
    if (answer) decisions.push(answer);
  }
  const deal = { removed, hands: [flows[0].slice(0, 6), flows[1].slice(0, 6)], draws };
  return { deal, decisions };
}

export function createEngine() {
  const reference = createReference();
  let started = null; // the new_game request of the game under way
  let shownFirst = null; // the first_player its views report

  // UPDATE-4's defect, at the deal of round 1 of a game player 1 started (see the top).
  async function restartForRoundOne() {
    const before = await reference.observe(0);
    if (!DEFECTS.has("UPDATE-4") || started.firstPlayer !== 1 || before.round !== 1 || before.phase !== "deal") return;
    const { deal, decisions } = roundForSides(before.scores[0].sides, 0);
    await reference.newGame({ ...started, firstPlayer: 0 });
    await reference.chance({ deal });
    for (const decision of decisions) await reference.apply(decision);
  }

  return {
    ...reference,
    async newGame(request) {
      await reference.newGame(request);
      started = request;
      shownFirst = request.firstPlayer;
    },
    async chance(outcome) {
      if (started.game === "hanamikoji") await restartForRoundOne();
      await reference.chance(outcome);
    },
    async observe(player) {
      const view = await reference.observe(player);
      if (started.game !== "hanamikoji") return view;
      return { ...view, first_player: shownFirst, result: drawnAtTheLimit(view.result) };
    },
    async result() {
      const result = await reference.result();
      return started.game === "hanamikoji" ? drawnAtTheLimit(result) : result;
    },
  };
}
