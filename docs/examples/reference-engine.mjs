// An engine object for docs/examples/adapter.mjs that delegates every question to the
// reference: it starts `python -m hanamikoji.oracle.core.adapter` (the interpreter named by
// $PYTHON, default python3) and asks it, one request at a time. It stands where your own
// engine goes: replace each function's body with your engine's code, and keep its name, its
// arguments and the JSON forms of what it returns.

import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

export function createEngine() {
  const python = process.env.PYTHON || "python3";
  const child = spawn(python, ["-m", "hanamikoji.oracle.core.adapter"],
                      { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = [];
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
    const next = waiting.shift();
    if (next) next.resolve(line);
  });
  child.on("exit", () => {
    for (const next of waiting.splice(0)) next.reject(new Error("the reference has exited"));
  });

  // One request to the reference; its answer, or an Error carrying its rule when it refuses.
  function ask(request) {
    return new Promise((resolve, reject) => {
      waiting.push({ resolve, reject });
      child.stdin.write(JSON.stringify(request) + "\n");
    }).then((line) => {
      const answer = JSON.parse(line);
      if ("error" in answer) {
        throw Object.assign(new Error(answer.error), { rule: answer.rule });
      }
      return answer;
    });
  }

  return {
    async newGame({ game, players, options, firstPlayer }) {
      await ask({ op: "new_game", game, players, options, first_player: firstPlayer });
    },
    async chance(outcome) {
      await ask({ op: "chance", outcome });
    },
    async currentPlayer() {
      return (await ask({ op: "current_player" })).current_player;
    },
    async legalActions() {
      return (await ask({ op: "legal_actions" })).legal_actions;
    },
    async apply(decision) {
      await ask({ op: "apply", decision });
    },
    async observe(player) {
      return (await ask({ op: "observe", player })).view;
    },
    async result() {
      return (await ask({ op: "result" })).result;
    },
    async randomChance({ game, players, options, seed }) {
      return (await ask({ op: "random_chance", game, players, options, seed })).outcome;
    },
    close() {
      child.stdin.end();
    },
  };
}
