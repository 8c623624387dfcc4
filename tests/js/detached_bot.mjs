// A bot for the referee's tests (tests/test_referee_keeper.py): at each new game it starts a
// child detached in a session of its own (spawn with {detached: true}, unref'd, so the bot
// does not wait for it), which sleeps; it appends the child's process ID to the file named by
// its first argument, then plays the first legal decision each turn.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";

const pidfile = process.argv[2];
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const request = JSON.parse(line);
  if (request.op === "new_game") {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 3600000)"],
                        { detached: true, stdio: "ignore" });
    child.unref();
    appendFileSync(pidfile, `${child.pid}\n`);
    process.stdout.write(JSON.stringify({ ok: true }) + "\n");
  } else {
    process.stdout.write(JSON.stringify({ decision: request.legal[0] }) + "\n");
  }
});
