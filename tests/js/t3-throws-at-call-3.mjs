// A course T3 module that throws from its 3rd call on; its first two answers are
// tests/buaa/correct.mjs's. For tests/test_referee.py: served by docs/examples/buaa_bot.mjs, its
// forfeit shows the shim's line naming the call and the error's message, and exit code 1.
import { hanamikoji_action as correct } from "../buaa/correct.mjs";

let calls = 0;

export function hanamikoji_action(history, cards, board) {
  calls += 1;
  if (calls >= 3) throw new Error("no card left to choose from");
  return correct(history, cards, board);
}
