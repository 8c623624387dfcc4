// A tiny correct BUAA module, written from the course's task statements (for buaa_check.mjs).
const CHARM = [2, 2, 2, 3, 3, 4, 5];
const TIERS = [[6], [5], [3, 4], [0, 1, 2]];

export function hanamikoji_judge(board, round) {
  const charm = (s) => CHARM.reduce((t, c, g) => t + (board[g] === s ? c : 0), 0);
  const count = (s) => Array.from(board).filter((v) => v === s).length;
  for (const s of [1, -1]) if (charm(s) >= 11) return s;
  for (const s of [1, -1]) if (count(s) >= 4 && charm(-s) < 11) return s;
  if (round < 3) return 0;
  if (charm(1) !== charm(-1)) return charm(1) > charm(-1) ? 1 : -1;
  for (const tier of TIERS) {
    const mine = tier.some((g) => board[g] === 1), theirs = tier.some((g) => board[g] === -1);
    if (mine !== theirs) return mine ? 1 : -1;
  }
  return 2;
}

export function calc_current_state(history, board) {
  const sides = [Array(7).fill(0), Array(7).fill(0)];
  const add = (p, letters) => { for (const ch of letters) sides[p][ch.charCodeAt(0) - 65] += 1; };
  history.trim().split(/\s+/).forEach((move, i) => {
    const me = i % 2, other = 1 - me, [body, taken = ""] = move.slice(1).split("-");
    if (move[0] === "1") add(me, body);
    if (move[0] === "3" || move[0] === "4") {
      add(other, taken);
      const rest = [...body];
      for (const ch of taken) rest.splice(rest.indexOf(ch), 1);
      add(me, rest.join(""));
    }
  });
  const after = Array.from(board, (v, g) => (sides[0][g] > sides[1][g] ? 1 : sides[0][g] < sides[1][g] ? -1 : v));
  return [sides[0], sides[1], after];
}

export function hanamikoji_action(history, cards, board) {
  const moves = history.trim() ? history.trim().split(/\s+/) : [];
  const last = moves[moves.length - 1];
  if (last && "34".includes(last[0]) && !last.includes("-")) return "-" + last.slice(1, last[0] === "3" ? 2 : 3);
  const used = moves.filter((m, i) => i % 2 === moves.length % 2).map((m) => m[0]);
  const kind = ["1", "2", "3", "4"].find((k) => !used.includes(k));
  return kind + cards.slice(0, Number(kind));
}
