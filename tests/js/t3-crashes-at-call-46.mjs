// A course T3 module that crashes from its 46th call on, as a WebAssembly module does once its
// garbage collector has freed a string the glue did not pin (the real case: "abort: at
// ~lib/rt/itcms.ts:128"). Its first 45 answers are tests/buaa/correct.mjs's. For
// tests/test_buaa_check.py and docs/buaa.md: buaa_check.mjs names call 46 and shows the message.
import { hanamikoji_action as correct } from "../buaa/correct.mjs";

let calls = 0;

export function hanamikoji_action(history, cards, board) {
  calls += 1;
  if (calls >= 46) throw new Error("abort: at ~lib/rt/itcms.ts:128");
  return correct(history, cards, board);
}
