// A BUAA 2026 T3 submission as a bot of `hanamikoji tournament` (docs/tournament.md), unchanged.
//
//   node docs/examples/buaa_bot.mjs MODULE.js
//
// MODULE is the JavaScript glue your toolchain made for your WebAssembly module (the file the
// course's T3 test.js imports), or a plain JavaScript module: it exports the course's
// hanamikoji_action(history, cards, board) under one of the names the course accepts
// (hanamikoji_action, HanamikojiAction, hanamikojiAction). This shim speaks the bot protocol on
// standard input and output: each decide request carries "buaa": {history, hand, board}, the
// three arguments as the course passes them (board as an Int8Array, from the bot's side), and
// the function's string is sent back as the decision, which the referee reads as the course's
// notation ("1E", "2BC", "3BCC", "4ACBD", "-C", "-BD"). Node 18+, no packages.
//
//   hanamikoji tournament heuristic "node docs/examples/buaa_bot.mjs t3-rust/pkg/t3_rust.js"
import { createInterface } from "node:readline";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [modulePath] = process.argv.slice(2);
if (!modulePath) {
  console.error("usage: node buaa_bot.mjs MODULE.js");
  process.exit(2);
}
const mod = await import(pathToFileURL(resolve(modulePath)).href);
const names = ["hanamikoji_action", "HanamikojiAction", "hanamikojiAction"];
const action = names.map((n) => mod[n] ?? mod.default?.[n]).find((f) => typeof f === "function");
if (!action) {
  console.error(`${modulePath} exports none of ${names.join(", ")}`);
  process.exit(2);
}

const send = (answer) => process.stdout.write(JSON.stringify(answer) + "\n");
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  if (request.op === "new_game") {
    send({ ok: true, name: modulePath });
  } else if (request.op === "decide") {
    const { history, hand, board } = request.buaa;
    const answer = await action(history, hand, Int8Array.from(board));
    send({ decision: String(answer) });
  }
}
