// The diff protocol's adapter loop in JavaScript (ESM, Node 18+, no npm packages): the model
// for an engine written in another language than Python (docs/oracle.md, "An adapter in
// JavaScript").
//
//   node docs/examples/adapter.mjs [--engine ./my-engine.mjs]
//
// reads one JSON request per line on standard input and writes one JSON answer per line on
// standard output, asking an engine object with named functions:
//
//   newGame({game, players, options, firstPlayer})   start a game, forgetting any other
//   chance(outcome)                                  a chance outcome (a deal, a layout)
//   currentPlayer()                                  a player number, "chance" or "terminal"
//   legalActions()                                   every legal decision, each once
//   apply(decision)                                  play a decision
//   observe(player)                                  what that player sees
//   result()                                         null, or how the game ended
//   randomChance({game, players, options, seed})     optional: a seeded first chance outcome
//   close()                                          optional: the input has ended
//
// in the JSON forms of `hanamikoji schema --protocol --game G`. Any of them may return a
// Promise. A function that throws refuses the request: the answer is {"error": message, "rule":
// error.rule or null}, and the engine must leave the game as it was.
//
// The engine module (--engine, default ./reference-engine.mjs beside this file) exports
// createEngine(), which returns the engine object.

import { createInterface } from "node:readline";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

// Hanamikoji's requests of protocol 1 name no game; this loop answers new_game with
// "protocol": 2, so the harness sends the general requests (naming the game) from then on.
const DEFAULT_GAME = "hanamikoji";

class NotARequest extends Error {}

function refusal(error) {
  return { error: String(error && error.message ? error.message : error),
           rule: error && typeof error.rule === "string" ? error.rule : null };
}

// The answer to one parsed request, from the engine.
export async function answer(engine, request) {
  switch (request.op) {
    case "new_game": {
      const general = "game" in request;
      await engine.newGame({
        game: general ? request.game : DEFAULT_GAME,
        players: general ? request.players : 2,
        options: general ? request.options : { variant: request.variant },
        firstPlayer: request.first_player,
      });
      return { ok: true, protocol: 2 };
    }
    case "chance":
      await engine.chance(request.outcome);
      return { ok: true };
    case "deal": // protocol 1's chance request
      await engine.chance({ deal: request.deal });
      return { ok: true };
    case "current_player":
      return { current_player: await engine.currentPlayer() };
    case "legal_actions":
      return { legal_actions: await engine.legalActions() };
    case "apply":
      await engine.apply(request.decision);
      return { ok: true };
    case "observe":
      return { view: await engine.observe(request.player) };
    case "result":
      return { result: await engine.result() };
    case "random_chance":
    case "random_deal": {
      if (typeof engine.randomChance !== "function") {
        throw new Error("this engine draws no seeded chance outcomes");
      }
      const general = request.op === "random_chance";
      const outcome = await engine.randomChance({
        game: general ? request.game : DEFAULT_GAME,
        players: general ? request.players : 2,
        options: general ? request.options : { variant: "standard" },
        seed: request.seed,
      });
      return general ? { outcome } : outcome; // protocol 1 answers the {"deal": ...} itself
    }
    default:
      throw new NotARequest();
  }
}

// The loop: every request line of `input` answered on `output`, in order, until the input ends.
export async function serve(engine, input = process.stdin, output = process.stdout) {
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let reply;
    try {
      const request = JSON.parse(line);
      if (request === null || typeof request !== "object" || Array.isArray(request)) {
        throw new NotARequest();
      }
      reply = await answer(engine, request);
    } catch (error) {
      reply = error instanceof SyntaxError || error instanceof NotARequest
        ? { error: `not a request of the protocol: ${line.trim().slice(0, 80)}`, rule: null }
        : refusal(error);
    }
    output.write(JSON.stringify(reply) + "\n");
  }
  if (typeof engine.close === "function") await engine.close();
}

async function main(argv) {
  let engineModule = new URL("./reference-engine.mjs", import.meta.url).href;
  const at = argv.indexOf("--engine");
  if (at >= 0) {
    if (!argv[at + 1]) {
      process.stderr.write("adapter.mjs: --engine needs a module path\n");
      process.exit(2);
    }
    engineModule = pathToFileURL(resolve(argv[at + 1])).href;
  }
  let engine;
  try {
    engine = (await import(engineModule)).createEngine();
  } catch (error) {
    process.stderr.write(`adapter.mjs: --engine ${engineModule}: cannot load it: ${error.message}\n`);
    process.exit(2);
  }
  await serve(engine);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
