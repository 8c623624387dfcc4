// A resident judge from JavaScript (docs/oracle.md, "A resident judge"): one
// `hanamikoji validate --json -` for all the records, one line in, one verdict out.
//
//   node docs/examples/resident_judge.mjs games.jsonl
//
// It prints, for each record of games.jsonl, its index, its status and the verdict's message,
// then the judge's exit code once its standard input is closed (0, 1 or 2, as `validate`'s).

import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const judge = spawn("hanamikoji", ["validate", "--json", "-"],
                    { stdio: ["pipe", "pipe", "inherit"] });
// The verdicts, a line each; the iterator keeps any line that comes before it is asked for.
const verdicts = createInterface({ input: judge.stdout })[Symbol.asyncIterator]();

/** The judge's verdict on one record (an object): written as one line, answered with one. */
async function verdict(record) {
  judge.stdin.write(JSON.stringify(record) + "\n");
  const { value, done } = await verdicts.next();
  if (done) throw new Error("the judge stopped");
  return JSON.parse(value);
}

for (const line of readFileSync(process.argv[2], "utf8").split("\n")) {
  if (!line.trim()) continue;
  const v = await verdict(JSON.parse(line));
  console.log(v.index, v.status, v.message);
}
judge.stdin.end();
const [code] = await once(judge, "close");
console.log("exit", code);
