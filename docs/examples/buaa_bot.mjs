// A BUAA 2026 T3 submission as a bot of `hanamikoji tournament` (docs/tournament.md), unchanged:
//
//   hanamikoji tournament heuristic "node docs/examples/buaa_bot.mjs t3-rust/pkg/t3_rust.js"
//
// The shim ships with the toolkit (oracle/hanamikoji/course/buaa_bot.mjs, where what it does is
// described); this file runs it from a checkout.
import "../../oracle/hanamikoji/course/buaa_bot.mjs";
