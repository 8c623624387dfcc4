// Check a BUAA 2026 Hanamikoji module against the vectors of `hanamikoji vectors --tasks buaa`.
//
//   node docs/examples/buaa_check.mjs MODULE.js [VECTORS_DIR]
//
// MODULE exports any of the course's functions (each under one of its names):
// hanamikoji_judge(board, round), calc_current_state(history, board) and
// hanamikoji_action(history, cards, board); boards are passed as Int8Array, as the course's
// tests pass them. VECTORS_DIR defaults to the checkout's tests/vectors/buaa (found from this
// file, wherever it is run from). Node 18+, no packages.
// Prints the first failures, then "N passed, N failed"; exits 1 if any failed, 2 (one line on
// stderr) if the module or the vectors cannot be read.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

function fatal(message) {
  process.stderr.write(`buaa_check.mjs: ${String(message).split("\n")[0]}\n`);
  process.exit(2);
}
const here = fileURLToPath(new URL("../../tests/vectors/buaa", import.meta.url));
const [modulePath, dir = here] = process.argv.slice(2);
if (!modulePath) fatal("usage: node buaa_check.mjs MODULE.js [VECTORS_DIR]");
let mod;
try {
  mod = await import(pathToFileURL(resolve(modulePath)).href);
} catch (error) {
  fatal(`${modulePath}: cannot load it: ${error?.message ?? error}`);
}
const pick = (...names) => names.map((n) => mod[n]).find((f) => typeof f === "function");
function load(name) {
  const path = resolve(dir, name);
  try {
    const tests = JSON.parse(readFileSync(path, "utf8")).tests;
    if (Array.isArray(tests)) return tests;
    throw new Error("no array of tests in it");
  } catch (error) {
    fatal(`cannot read the vectors ${path}: ${error?.message ?? error}`);
  }
}
// A function that throws fails its case, with the error's message.
class Thrown { constructor(error) { this.text = `threw ${String(error?.message ?? error).split("\n")[0]}`; } toString() { return this.text; } }
function call(f, ...args) {
  try { return f(...args); } catch (error) { return new Thrown(error); }
}
const or = (out, convert) => (out instanceof Thrown ? String(out) : convert(out));
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
  fatal(`${modulePath} exports none of hanamikoji_judge, calc_current_state, hanamikoji_action`);
}
if (judge) for (const c of load("t1.json")) {
  const got = or(call(judge, Int8Array.from(c.board), c.round), Number);
  check("T1", got === c.expected, `board ${JSON.stringify(c.board)} round ${c.round}: expected ${c.expected}, got ${got}`);
}
if (calc) for (const c of load("t2.json")) {
  const got = or(call(calc, c.history, Int8Array.from(c.board)), matrix);
  check("T2", same(got, c.expected), `${c.id} "${c.history}" from ${JSON.stringify(c.board)}: expected ${JSON.stringify(c.expected)}, got ${JSON.stringify(got)}`);
}
if (action) for (const c of load("t3.json")) {
  const got = String(call(action, c.history, c.hand, Int8Array.from(c.board))).trim();
  const ok = c.legal.includes(got) || Object.values(c.spellings).some((s) => s.includes(got));
  check("T3", ok, `${c.id} history "${c.history}" hand ${c.hand}: "${got}" is not a legal answer`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
