// A BUAA 2026 T3 submission as a bot of `hanamikoji tournament` (docs/tournament.md), unchanged.
//
//   node docs/examples/buaa_bot.mjs MODULE.js
//
// MODULE is the JavaScript glue your toolchain made for your WebAssembly module (the file the
// course's T3 test.js imports), or a plain JavaScript module: it exports the course's
// hanamikoji_action(history, cards, board) under one of the names the course accepts
// (hanamikoji_action, HanamikojiAction, hanamikojiAction), as a named export or a field of its
// default export; buaa_check.mjs loads modules the same way (buaa_module.mjs). This shim speaks
// the bot protocol on standard input and output: each decide request carries "buaa": {history,
// hand, board}, the three arguments as the course passes them (board as an Int8Array, from the
// bot's side), and the function's string is sent back as the decision, which the referee reads
// as the course's notation ("1E", "2BC", "3BCC", "4ACBD", "-C", "-BD"). Standard output is the
// protocol's: whatever the module prints (console.log, console.error and the other console
// methods, process.stdout.write) goes to standard error, so debug output never breaks a game.
// A function that throws ends the process with its message on standard error. Node 18+, no
// packages.
//
//   hanamikoji tournament heuristic "node docs/examples/buaa_bot.mjs t3-rust/pkg/t3_rust.js"
//
// This file ships with the toolkit (hanamikoji/oracle/hanamikoji/course/); docs/examples/
// buaa_bot.mjs runs it from a checkout.
import { createInterface } from "node:readline";
import { LoadError, NAMES, keepStdout, loadCourseModule } from "./buaa_module.mjs";

// The protocol's channel, kept before anything the module runs can print.
const protocol = keepStdout();

function fatal(message, code) {
  process.stderr.write(`buaa_bot.mjs: ${message}\n`);
  process.exit(code);
}

const [modulePath] = process.argv.slice(2);
if (!modulePath) fatal("usage: node buaa_bot.mjs MODULE.js", 2);
let action, exported;
try {
  ({ action, exported } = await loadCourseModule(modulePath));
} catch (error) {
  if (!(error instanceof LoadError)) throw error;
  fatal(error.message, 2);
}
if (!action) fatal(`${modulePath} exports none of ${NAMES.action.join(", ")}`, 2);

const send = (answer) => protocol(JSON.stringify(answer) + "\n");
let calls = 0;
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  if (request.op === "new_game") {
    send({ ok: true, name: modulePath });
  } else if (request.op === "decide") {
    const { history, hand, board } = request.buaa;
    calls += 1;
    let answer;
    try {
      answer = await action(history, hand, Int8Array.from(board));
    } catch (error) {
      fatal(`call ${calls} of ${exported.action}("${history}", "${hand}", ` +
            `[${board}]) threw: ${String(error?.message ?? error).split("\n")[0]}`, 1);
    }
    send({ decision: String(answer) });
  }
}
