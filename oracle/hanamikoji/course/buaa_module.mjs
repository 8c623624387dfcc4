// How buaa_check.mjs and buaa_bot.mjs load a BUAA 2026 course module: one loader, so the
// checker accepts exactly what the bot shim plays.
//
// A module is the JavaScript glue a toolchain made for a WebAssembly module (the file the
// course's test.js imports) or a plain JavaScript module. Each of the course's three functions
// is looked up under the names the course's tests accept, first among the module's named
// exports, then as a field of its default export (`export default { hanamikoji_action }`).
// Node 18+, no packages.
import { Console } from "node:console";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

// The course's functions, each under the names its test.js accepts.
export const NAMES = {
  judge: ["hanamikoji_judge", "HanamikojiJudge", "hanamikojiJudge"],
  calc: ["calc_current_state", "calcCurrentState", "CalcCurrentState"],
  action: ["hanamikoji_action", "HanamikojiAction", "hanamikojiAction"],
};

// A module that cannot be loaded; its message is one line for a person.
export class LoadError extends Error {}

// The package a module imports that is not installed, or null: Node names it "Cannot find
// package 'NAME' imported from ..." for an import, "Cannot find module 'NAME'" for a require
// (a file that is missing is named by its path, which is no package).
function missingPackage(error) {
  if (!["ERR_MODULE_NOT_FOUND", "MODULE_NOT_FOUND"].includes(error?.code)) return null;
  const found = /Cannot find (?:package|module) '([^']+)'/.exec(String(error.message));
  return found && !/^(\.|\/|[A-Za-z]:|file:)/.test(found[1]) ? found[1] : null;
}

function firstLine(error) {
  return String(error?.message ?? error).split("\n")[0];
}

// The course's functions `path` exports, as { judge, calc, action } (each a function or
// undefined), `exported`: the name each was found under, and `where`: "named" (a named export)
// or "default" (a field of the default export), for a call to paste. Throws
// LoadError, with one line saying why, when the module cannot be imported.
export async function loadCourseModule(path) {
  let mod;
  try {
    mod = await import(pathToFileURL(resolve(path)).href);
  } catch (error) {
    const missing = missingPackage(error);
    if (missing === "@assemblyscript/loader") {
      throw new LoadError(`${path}: cannot load it: its glue imports @assemblyscript/loader, ` +
                          "which is not installed: run npm install @assemblyscript/loader " +
                          "in the module's folder (docs/buaa.md)");
    }
    if (missing) {
      throw new LoadError(`${path}: cannot load it: it imports the package ${missing}, which ` +
                          `is not installed: run npm install ${missing} in the module's folder`);
    }
    throw new LoadError(`${path}: cannot load it: ${firstLine(error)}`);
  }
  const found = {}, exported = {}, where = {};
  for (const [task, names] of Object.entries(NAMES)) {
    const name = names.find((n) => typeof (mod[n] ?? mod.default?.[n]) === "function");
    if (name) {
      const named = typeof mod[name] === "function";
      [found[task], exported[task]] = [named ? mod[name] : mod.default[name], name];
      where[task] = named ? "named" : "default";
    }
  }
  return { ...found, exported, where };
}

// Every console method a module may call to print.
export const CONSOLE_METHODS = ["log", "info", "debug", "warn", "error", "trace", "dir",
                                "table", "dirxml", "group", "groupCollapsed", "count",
                                "timeLog", "timeEnd", "assert"];

// Keep standard output for the caller: from here on, every console method and every other
// write to process.stdout goes to standard error. Returns the function that writes to the
// real standard output (the bot protocol's channel, the checker's report).
export function keepStdout() {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr);
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  for (const name of CONSOLE_METHODS) {
    if (typeof toStderr[name] === "function") console[name] = toStderr[name].bind(toStderr);
  }
  return write;
}
