// Check a BUAA 2026 Hanamikoji module against the vectors of `hanamikoji vectors --tasks buaa`.
//
//   node buaa_check.mjs MODULE.js [VECTORS_DIR] [MORE_VECTORS_DIR...] [--calls N] [--limit MS]
//                       [--times] [--show N] [--json]
//
// This file ships with the toolkit (hanamikoji/oracle/hanamikoji/course/, run by `hanamikoji
// check MODULE`); docs/examples/buaa_check.mjs runs it from a checkout.
//
// MODULE exports any of the course's functions (each under one of its names, as a named export
// or a field of its default export: the bot shim buaa_bot.mjs loads modules the same way,
// through buaa_module.mjs): hanamikoji_judge(board, round), calc_current_state(history, board)
// and hanamikoji_action(history, cards, board); boards are passed as Int8Array, as the course's
// tests pass them. VECTORS_DIR defaults to the checkout's tests/vectors/buaa (found from this
// file, wherever it is run from; an installed toolkit has none: make them with `hanamikoji
// vectors --tasks buaa --out DIR`). Several folders are read in order, each function's cases
// one after the other, less those an earlier folder holds (the same in every field): the
// committed vectors, then those of `vectors --cases N --seed S`. Node 18+, no packages.
//
// Every call is made in this one process, in order, and counted: a failure is named by its
// call number, so a module that breaks only after many calls (a leak, memory the module's
// collector freed, a stale cache) is caught where it starts. --calls N makes N calls of each
// function the module exports, going round its cases again as often as needed; --limit MS fails
// a call that takes longer (the course's referee allows 2000 ms a decision); --times prints each
// function's time per call (median, 90th and 99th percentile, longest), as --calls does.
// --show N prints the first N failures (default 10), each with the call to paste and why it
// failed: a T1 code and what it means, a T2 matrix cell by cell, a T3 answer's broken rule.
// Then "N passed, N failed"; exits 1 if any failed, 2 (one line on stderr) if the module or
// the vectors cannot be read. What the module prints (console.log, ...) goes to stderr, as the
// bot shim sends it, so standard output is the report alone.
//
// --json writes the report for a program (hanamikoji check): one JSON object a line, written
// as it goes, so a process that dies mid-run has said every call it made. {"module", "exported"}
// first (each task's function name and "named" or "default", or null); then for each task
// {"task", "function", "cases", "calls"}, and a line a call: {"call", "ms"} for one that passed,
// with "failed": true for one that failed, and for the first --show failures of each task its
// "case" (its place among the task's cases), "id", "request" (the call to paste), "message",
// "expected", "got", "rule" (a T3 answer's broken rule) and "thrown" (a thrown error's
// message); {"end", "passed", "failed"} last. A planned stop is {"error": MESSAGE} (and the line
// on stderr, exit 2); a process the module ended is {"ended": EXIT_CODE, "call": N}.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LoadError, NAMES, keepStdout, loadCourseModule } from "./buaa_module.mjs";

// The report is standard output; what the module prints (console.log, ...) goes to stderr.
const report = keepStdout();
const print = (line) => report(`${line}\n`);

const USAGE = "usage: node buaa_check.mjs MODULE.js [VECTORS_DIR] [MORE_VECTORS_DIR...] " +
              "[--calls N] [--limit MS] [--times] [--show N] [--json]";
const json = process.argv.includes("--json");
const emit = (object) => report(`${JSON.stringify(object)}\n`);

let finished = false; // set on every planned exit: any other is the module's doing

function fatal(message) {
  finished = true;
  const line = String(message).split("\n")[0];
  if (json) emit({ error: line });
  process.stderr.write(`buaa_check.mjs: ${line}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const options = { calls: null, limit: null, times: false, show: 10, json: false };
  const positional = [];
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i];
    if (word === "--times" || word === "--json") { options[word.slice(2)] = true; continue; }
    if (!["--calls", "--limit", "--show"].includes(word)) {
      if (word.startsWith("--")) fatal(`unknown option ${word}; ${USAGE}`);
      positional.push(word);
      continue;
    }
    const value = Number(argv[i + 1]);
    const whole = word !== "--limit";
    if (!(value >= (word === "--show" ? 0 : 1)) || (whole && !Number.isInteger(value))) {
      fatal(`${word} takes a ${whole ? "whole " : ""}number${word === "--show" ? "" :
        " above 0"}, not ${argv[i + 1] ?? "nothing"}`);
    }
    options[word.slice(2)] = value;
    i += 1;
  }
  if (positional.length < 1) fatal(USAGE);
  return { modulePath: positional[0], dirs: positional.slice(1), ...options };
}

// The checkout's committed vectors, from this file's place in it (oracle/hanamikoji/course/).
const here = fileURLToPath(new URL("../../../tests/vectors/buaa", import.meta.url));
const args = parseArgs(process.argv.slice(2));
if (!args.dirs.length && !existsSync(here)) {
  fatal("no VECTORS_DIR given, and no checkout's tests/vectors/buaa beside this runner: make " +
        "them with hanamikoji vectors --tasks buaa --out DIR, then give DIR");
}
const dirs = args.dirs.length ? args.dirs : [here];
let functions;
try {
  functions = await loadCourseModule(args.modulePath);
} catch (error) {
  if (!(error instanceof LoadError)) throw error;
  fatal(error.message);
}
if (!functions.judge && !functions.calc && !functions.action) {
  fatal(`${args.modulePath} exports none of ${[NAMES.judge[0], NAMES.calc[0], NAMES.action[0]]
    .join(", ")}`);
}
// A task's cases: those of each folder in turn, less those an earlier folder holds (the same
// in every field): T1's file is the same in every folder `vectors` writes.
function load(name) {
  const cases = [], seen = new Set();
  for (const dir of dirs) {
    const path = resolve(dir, name);
    let tests;
    try {
      tests = JSON.parse(readFileSync(path, "utf8")).tests;
      if (!Array.isArray(tests)) throw new Error("no array of tests in it");
    } catch (error) {
      fatal(`cannot read the vectors ${path}: ${error?.message ?? error}`);
    }
    const keys = tests.map((c) => JSON.stringify(c));
    cases.push(...tests.filter((c, i) => !seen.has(keys[i])));
    for (const key of keys) seen.add(key);
  }
  return cases;
}

// --- the course's terms ------------------------------------------------------------------------

const LETTERS = "ABCDEFG";
const T1_MEANING = { 1: "you win", [-1]: "the opponent wins", 0: "play on",
                     2: "a draw, after round 3" };
const ROWS = ["your cards of", "the opponent's cards of", "the board after scoring at"];
const KIND = { 1: "secret", 2: "trade-off", 3: "gift", 4: "competition" };
const SIZE_RULE = { 1: "ACT-SECRET-1", 2: "ACT-TRADE-1", 3: "ACT-GIFT-1", 4: "ACT-COMP-1" };
const sorted = (text) => [...text].sort().join("");
const isCard = (ch) => ch.length === 1 && LETTERS.includes(ch);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const quote = (value) => JSON.stringify(String(value));
const int8 = (board) => `Int8Array.from(${JSON.stringify(Array.from(board))})`;

function t1Text(code) {
  return code in T1_MEANING ? `${code} (${T1_MEANING[code]})` : JSON.stringify(code);
}

// Which cells of a T2 answer differ from the expected 3 x 7, each with its meaning.
function cellsDiffer(expected, got) {
  const wrong = [];
  expected.forEach((row, r) => row.forEach((want, g) => {
    if (got[r][g] !== want) {
      wrong.push(`[${r}][${g}] ${ROWS[r]} ${LETTERS[g]}: expected ${want}, got ${got[r][g]}`);
    }
  }));
  return `${plural(wrong.length, "cell")} of 21 differ: ${wrong.join("; ")}`;
}

// Why a T3 answer is not legal, with the rule it breaks ([reason, rule ID]), or null where this
// reading finds nothing (the vectors' list of legal answers is what decides). The order of the
// questions is the toolkit's (oracle/hanamikoji/bot.py, course_decision, then the engine): the
// answer's shape first, then the position (a pending offer, the actions used, the hand); the
// reasons are those of why_illegal there, word for word.
function whyIllegal(history, hand, answer) {
  const token = String(answer).trim();
  if (!token || String(answer).length > 32) {
    return [`an answer is a digit 1 to 4 and its cards, or '-' and a pick, not ${quote(String(answer).slice(0, 32))}`,
            "COMP-3"];
  }
  const moves = history.trim() ? history.trim().split(/\s+/) : [];
  const last = moves[moves.length - 1];
  const pending = last && "34".includes(last[0]) && !last.includes("-") ? last : null;
  if (token[0] === "-") return whyPick(token.slice(1), pending, last);
  const kind = "1234".indexOf(token[0]) + 1;
  const name = KIND[kind];
  if (!kind) return [`an action starts with its digit, 1 to 4, not '${token[0]}'`, "COMP-3"];
  const [body, ...after] = token.slice(1).split("-");
  const bad = [...body].find((ch) => !isCard(ch));
  if (bad !== undefined) return [`'${bad}' is not a card: cards are A to G`, "COMP-2"];
  if (body.length !== kind) {
    return [`a ${name} takes exactly ${plural(kind, "card")}, not ${body.length}`, SIZE_RULE[kind]];
  }
  if (after.length) {
    if (kind <= 2) return [`a ${name} has no pick: only a gift or a competition is answered`, "TURN-4"];
    const taken = after.join("-");
    const badPick = [...taken].find((ch) => !isCard(ch));
    if (badPick !== undefined) return [`'${badPick}' is not a card: cards are A to G`, "COMP-2"];
    const size = kind === 3 ? 1 : 2;
    if (taken.length !== size) {
      return [`the pick of a ${name} takes exactly ${plural(size, "card")}, not ${taken.length}`,
              kind === 3 ? "ACT-GIFT-2" : "ACT-COMP-2"];
    }
    return [`an answer is one action: the pick after '-' is the opponent's`, "TURN-4"];
  }
  if (pending) {
    return [`the opponent's ${KIND[pending[0]]} ${pending} waits for your pick: answer '-' and ` +
            `the ${pending[0] === "3" ? "card" : "set"} you take`, "TURN-4"];
  }
  const mine = moves.filter((m, i) => i % 2 === moves.length % 2);
  const used = mine.find((m) => m[0] === token[0]);
  if (used) return [`you have already played your ${name} this round (${used})`, "TURN-3"];
  for (const ch of new Set(body)) {
    const need = [...body].filter((c) => c === ch).length;
    const have = [...hand].filter((c) => c === ch).length;
    if (need > have) {
      return [have ? `the ${name} plays ${need} ${ch} but you hold ${have} (your hand: ${hand})`
                   : `you hold no ${ch} (your hand: ${hand})`, SIZE_RULE[kind]];
    }
  }
  return null;
}

function whyPick(taken, pending, last) {
  if (!taken || ![...taken].every(isCard)) {
    return [`a pick is '-' and the card or set taken (letters A to G), not ${quote("-" + taken)}`,
            "COMP-2"];
  }
  if (!pending) {
    if (taken.length > 2) return [`a pick takes 1 card (a gift) or 2 (a competition), not ${taken.length}`, "TURN-4"];
    return [`no gift or competition waits for your pick (${last ? `the last move is ${last}` :
            "the round starts"}): play an action`, "TURN-3"];
  }
  const offer = pending.slice(1);
  if (pending[0] === "3") {
    if (taken.length !== 1) return [`the pick of a gift takes exactly 1 card, not ${taken.length}`, "ACT-GIFT-2"];
    if (!offer.includes(taken)) return [`${taken} is not one of the gift's cards (${pending})`, "ACT-GIFT-2"];
    return null;
  }
  if (taken.length !== 2) return [`the pick of a competition takes exactly 2 cards, not ${taken.length}`, "ACT-COMP-2"];
  const sets = [offer.slice(0, 2), offer.slice(2)];
  if (!sets.map(sorted).includes(sorted(taken))) {
    return [`${taken} is not one of the competition's sets ${sets[0]} and ${sets[1]} (${pending})`,
            "ACT-COMP-2"];
  }
  return null;
}

// --- calling the module ------------------------------------------------------------------------

let calls = 0;
// A module that ends the process itself (process.exit, an abort Node cannot catch) still gets
// its call named.
process.on("exit", (code) => {
  if (finished) return;
  if (json) emit({ ended: code, call: calls });
  else print(`FAIL: the process ended (exit code ${code}) during call ${calls}`);
  if (!code) process.exitCode = 1;
});
// One call, counted and timed: { value } or { thrown }, and the milliseconds it took.
async function call(f, ...params) {
  calls += 1;
  const begun = process.hrtime.bigint();
  let out;
  try {
    out = { value: f(...params) };
    if (typeof out.value?.then === "function") out = { value: await out.value };
  } catch (error) {
    const name = error?.name && error.name !== "Error" ? `${error.name}: ` : "";
    out = { thrown: `${name}${String(error?.message ?? error).split("\n")[0]}` };
  }
  out.ms = Number(process.hrtime.bigint() - begun) / 1e6;
  return out;
}

function matrix(out) { // a flat 21 or 3 rows of 7, as the course's T2 test accepts
  const flat = Array.from(out ?? [], (row) => (typeof row === "object" ? Array.from(row) : row)).flat();
  if (flat.length !== 21) return null;
  return [0, 7, 14].map((i) => flat.slice(i, i + 7).map(Number));
}

// What is wrong with one answer (null if nothing), in the course's terms: { message,
// expected, got, rule }.
const verdicts = {
  T1(c, out) {
    const got = Number(out.value);
    return got === c.expected ? null : {
      message: `expected ${t1Text(c.expected)}, got ${t1Text(got)}`,
      expected: t1Text(c.expected), got: t1Text(got) };
  },
  T2(c, out) {
    const got = matrix(out.value);
    const expected = JSON.stringify(c.expected);
    if (!got) {
      const raw = JSON.stringify(Array.from(out.value ?? []));
      return { message: `expected 3 rows of 7 numbers (or 21 numbers), got ${raw}`, expected,
               got: raw };
    }
    return JSON.stringify(got) === expected ? null
      : { message: cellsDiffer(c.expected, got), expected, got: JSON.stringify(got) };
  },
  T3(c, out) {
    const got = String(out.value).trim();
    if (c.legal.includes(got) || Object.values(c.spellings).some((s) => s.includes(got))) return null;
    const why = whyIllegal(c.history, c.hand, out.value);
    return {
      message: `returned ${quote(out.value)}, which is not legal: ` +
        (why ? `${why[0]} [${why[1]}]` : `it is not one of the legal answers ${c.legal.join(" ")}`),
      expected: `one of ${c.legal.join(" ")}`, got: quote(out.value), rule: why ? why[1] : null };
  },
};

const tasks = [
  ["T1", functions.judge, functions.exported.judge, "t1.json",
   (c) => [Int8Array.from(c.board), c.round],
   (c) => `${int8(c.board)}, ${c.round}`],
  ["T2", functions.calc, functions.exported.calc, "t2.json", (c) => [c.history, Int8Array.from(c.board)],
   (c) => `${quote(c.history)}, ${int8(c.board)}`],
  ["T3", functions.action, functions.exported.action, "t3.json",
   (c) => [c.history, c.hand, Int8Array.from(c.board)],
   (c) => `${quote(c.history)}, ${quote(c.hand)}, ${int8(c.board)}`],
].filter(([, f]) => f);

function percentile(sortedMs, p) {
  return sortedMs[Math.min(sortedMs.length - 1, Math.ceil((p / 100) * sortedMs.length) - 1)];
}
const ms = (x) => `${x < 10 ? x.toFixed(3) : x.toFixed(1)} ms`;

if (json) {
  const exported = {};
  for (const [task, key] of [["T1", "judge"], ["T2", "calc"], ["T3", "action"]]) {
    exported[task] = functions[key] ? { name: functions.exported[key], from: functions.where[key] }
                                    : null;
  }
  emit({ module: args.modulePath, exported });
}

let passed = 0, failed = 0;
const summaries = [];
for (const [task, f, name, file, params, shown] of tasks) {
  const cases = load(file);
  const total = args.calls ?? cases.length;
  const times = [];
  let taskFailed = 0, first = null;
  if (json) emit({ task, function: name, cases: cases.length, calls: cases.length ? total : 0 });
  for (let i = 0; i < total && cases.length; i += 1) {
    const c = cases[i % cases.length];
    const out = await call(f, ...params(c));
    times.push(out.ms);
    let wrong = out.thrown !== undefined
      ? { message: `threw ${out.thrown}`, thrown: out.thrown }
      : verdicts[task](c, out);
    if (wrong === null && args.limit !== null && out.ms > args.limit) {
      wrong = { message: `took ${ms(out.ms)}, over the limit of ${args.limit} ms` };
    }
    if (wrong === null) {
      passed += 1;
      if (json) emit({ call: calls, ms: out.ms });
      continue;
    }
    failed += 1; taskFailed += 1;
    first ??= calls;
    if (json) {
      emit(taskFailed > args.show ? { call: calls, ms: out.ms, failed: true } : {
        call: calls, ms: out.ms, failed: true, case: i % cases.length, id: c.id ?? null,
        request: `${name}(${shown(c)})`, message: wrong.message,
        expected: wrong.expected ?? null, got: wrong.got ?? null, rule: wrong.rule ?? null,
        thrown: wrong.thrown ?? null });
    } else if (failed <= args.show) {
      const id = c.id ? ` (${c.id})` : "";
      print(`FAIL ${task}: call ${calls}${id}: ${name}(${shown(c)}): ${wrong.message}`);
    }
  }
  if (taskFailed) {
    summaries.push(`${task}: ${times.length - taskFailed} passed, ${taskFailed} failed of ` +
                   `${times.length} calls; the first failure at call ${first}`);
  }
  if (args.times || args.calls !== null) {
    const s = [...times].sort((a, b) => a - b);
    if (s.length) {
      summaries.push(`${task} time per call (${plural(s.length, "call")}): median ` +
        `${ms(percentile(s, 50))}, 90% ${ms(percentile(s, 90))}, 99% ${ms(percentile(s, 99))}, ` +
        `longest ${ms(s[s.length - 1])}` + (args.limit !== null ? `; limit ${args.limit} ms` : ""));
    }
  }
}
if (json) {
  emit({ end: true, passed, failed });
} else {
  for (const line of summaries) print(line);
  print(`${passed} passed, ${failed} failed`);
}
finished = true;
// Exit once the report is written: process.exit() drops what a full pipe has not yet taken
// (a loaded machine lost the last of 435 lines), and a timer the module left would keep the
// process alive if it were left to end by itself.
report("", () => process.exit(failed ? 1 : 0));
