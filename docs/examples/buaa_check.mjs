// Check a BUAA 2026 Hanamikoji module against the vectors of `hanamikoji vectors --tasks buaa`:
//
//   node docs/examples/buaa_check.mjs MODULE.js [VECTORS_DIR...] [--calls N] [--limit MS]
//                                     [--times] [--show N] [--json]
//
// The runner ships with the toolkit (`hanamikoji check MODULE` runs it); this file runs it from
// a checkout, where VECTORS_DIR defaults to tests/vectors/buaa. Its options are described in
// oracle/hanamikoji/course/buaa_check.mjs and docs/buaa.md.
import "../../oracle/hanamikoji/course/buaa_check.mjs";
