// Check a BUAA 2026 Hanamikoji module against the vectors of `hanamikoji vectors --tasks buaa`.
//
//   node docs/examples/buaa_check.mjs MODULE.js [VECTORS_DIR]
//
// MODULE exports any of the course's functions (each under one of its names):
// hanamikoji_judge(board, round), calc_current_state(history, board) and
// hanamikoji_action(history, cards, board); boards are passed as Int8Array, as the course's
// tests pass them. VECTORS_DIR defaults to tests/vectors/buaa. Node 18+, no packages.
// Prints the first failures, then "N passed, N failed"; exits 1 if any failed.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [modulePath, dir = "tests/vectors/buaa"] = process.argv.slice(2);
if (!modulePath) {
  console.error("usage: node buaa_check.mjs MODULE.js [VECTORS_DIR]");
  process.exit(2);
}
const mod = await import(pathToFileURL(resolve(modulePath)).href);
const pick = (...names) => names.map((n) => mod[n]).find((f) => typeof f === "function");
const load = (name) => JSON.parse(readFileSync(resolve(dir, name), "utf8")).tests;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
let passed = 0, failed = 0;
function check(task, ok, what) {
  if (ok) { passed += 1; return; }
  failed += 1;
  if (failed <= 10) console.log(`FAIL ${task}: ${what}`);
}
function matrix(out) { // a flat 21 or 3 rows of 7, as the course's T2 test accepts
  const flat = Array.from(out ?? [], (row) => (typeof row === "object" ? Array.from(row) : row)).flat();
  return [0, 7, 14].map((i) => flat.slice(i, i + 7).map(Number));
}

const judge = pick("hanamikoji_judge", "HanamikojiJudge", "hanamikojiJudge");
const calc = pick("calc_current_state", "calcCurrentState", "CalcCurrentState");
const action = pick("hanamikoji_action", "HanamikojiAction", "hanamikojiAction");
if (!judge && !calc && !action) {
  console.error(`${modulePath} exports none of hanamikoji_judge, calc_current_state, hanamikoji_action`);
  process.exit(2);
}
if (judge) for (const c of load("t1.json")) {
  const got = Number(judge(Int8Array.from(c.board), c.round));
  check("T1", got === c.expected, `board ${JSON.stringify(c.board)} round ${c.round}: expected ${c.expected}, got ${got}`);
}
if (calc) for (const c of load("t2.json")) {
  const got = matrix(calc(c.history, Int8Array.from(c.board)));
  check("T2", same(got, c.expected), `${c.id} "${c.history}" from ${JSON.stringify(c.board)}: expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(got)}`);
}
if (action) for (const c of load("t3.json")) {
  const got = String(action(c.history, c.hand, Int8Array.from(c.board))).trim();
  const ok = c.legal.includes(got) || Object.values(c.spellings).some((s) => s.includes(got));
  check("T3", ok, `${c.id} history "${c.history}" hand ${c.hand}: "${got}" is not a legal answer`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
