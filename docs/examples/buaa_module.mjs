// How buaa_check.mjs and buaa_bot.mjs load a BUAA 2026 course module (one loader, so the checker
// accepts exactly what the bot shim plays): it ships with the toolkit, in
// oracle/hanamikoji/course/buaa_module.mjs.
export * from "../../oracle/hanamikoji/course/buaa_module.mjs";
