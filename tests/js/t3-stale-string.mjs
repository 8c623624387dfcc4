// A course T3 module with an unpinned string's fault, simulated in plain JavaScript: after 60
// calls the glue's copy of the history has been freed and reused, and the function reads the
// previous call's history in its place. It passes the 48 committed cases (each called once);
// a long run in one process (buaa_check.mjs --calls) finds the first call that goes wrong.
import { hanamikoji_action as correct } from "../buaa/correct.mjs";

let calls = 0;
let freed = null;

export function hanamikoji_action(history, cards, board) {
  calls += 1;
  const seen = calls > 60 && freed !== null ? freed : history;
  freed = history;
  return correct(seen, cards, board);
}
