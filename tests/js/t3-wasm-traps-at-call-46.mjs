// A course T3 glue whose WebAssembly traps from its 46th call on, for tests/test_buaa_check.py:
// the module keeps a call counter in a global (WebAssembly memory lives as long as the
// process) and runs `unreachable` once it reaches 46, as a module whose memory went bad does.
// Written out byte by byte, so no toolchain is needed; the answers are tests/buaa/correct.mjs's.
import { hanamikoji_action as correct } from "../buaa/correct.mjs";

const bytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // \0asm, version 1
  0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // type 0: () -> ()
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x06, 0x06, 0x01, 0x7f, 0x01, 0x41, 0x00, 0x0b, // global 0: mutable i32 = 0
  0x07, 0x08, 0x01, 0x04, 0x74, 0x69, 0x63, 0x6b, 0x00, 0x00, // export "tick" = function 0
  0x0a, 0x14, 0x01, 0x12, 0x00, // code: one body of 18 bytes, no locals
  0x23, 0x00, 0x41, 0x01, 0x6a, 0x24, 0x00, // global 0 += 1
  0x23, 0x00, 0x41, 0x2e, 0x4e, 0x04, 0x40, 0x00, 0x0b, // if global 0 >= 46: unreachable
  0x0b, // end
]);
const { instance } = await WebAssembly.instantiate(bytes);

export function hanamikoji_action(history, cards, board) {
  instance.exports.tick();
  return correct(history, cards, board);
}
