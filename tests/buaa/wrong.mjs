// A BUAA module with three planted mistakes, which buaa_check.mjs must find: the judge forgets
// the tiers (a draw on equal charm), the calculator forgets the secrets, and the bot plays one
// card too many in its secret (which the course's own referee lets through).
import * as correct from "./correct.mjs";

const CHARM = [2, 2, 2, 3, 3, 4, 5];

export function hanamikoji_judge(board, round) {
  const code = correct.hanamikoji_judge(board, round);
  const charm = (s) => CHARM.reduce((t, c, g) => t + (board[g] === s ? c : 0), 0);
  return round === 3 && code !== 0 && charm(1) === charm(-1) ? 2 : code;
}

export function calc_current_state(history, board) {
  return correct.calc_current_state(history.replace(/\b1[A-G]\b/g, "1"), board);
}

export function hanamikoji_action(history, cards, board) {
  const answer = correct.hanamikoji_action(history, cards, board);
  return answer[0] === "1" ? answer + cards[1] : answer;
}
