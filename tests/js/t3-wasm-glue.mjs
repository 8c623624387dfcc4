// A course T3 submission's shape, for the bot shim's test (tests/test_buaa_bot.py): JavaScript
// glue that instantiates a WebAssembly module at import (top-level await, as glue made for
// Node may) and exports hanamikoji_action(history, cards, board). The module is written out
// here byte by byte, so no toolchain is needed: one function, cards(kind) -> the number of
// cards an action of that kind takes (its digit). The strategy around it: answer a pending
// gift or competition with its first card or set, else the first action not yet used this
// round, with the first cards of the hand.
const bytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // \0asm, version 1
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, // type 0: (i32) -> i32
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x07, 0x09, 0x01, 0x05, 0x63, 0x61, 0x72, 0x64, 0x73, 0x00, 0x00, // export "cards" = function 0
  0x0a, 0x06, 0x01, 0x04, 0x00, 0x20, 0x00, 0x0b, // body: local.get 0, end
]);
const { instance } = await WebAssembly.instantiate(bytes);
const cardsOf = instance.exports.cards;

export function hanamikoji_action(history, cards, board) {
  if (!(board instanceof Int8Array) || board.length !== 7) throw new Error("board is an Int8Array of 7");
  const moves = history.trim() ? history.trim().split(/\s+/) : [];
  const last = moves[moves.length - 1];
  if (last && "34".includes(last[0]) && !last.includes("-")) {
    return "-" + last.slice(1, last[0] === "3" ? 2 : 3);
  }
  const used = moves.filter((m, i) => i % 2 === moves.length % 2).map((m) => m[0]);
  const kind = ["1", "2", "3", "4"].find((k) => !used.includes(k));
  return kind + cards.slice(0, cardsOf(Number(kind)));
}
