// A JavaScript engine with a planted rule bug, for tests/test_js_adapter.py: the reference
// engine of docs/examples/reference-engine.mjs, except that a trade-off of two cards of one
// geisha is neither offered nor accepted (ACT-TRADE-1 takes any two cards of the hand).

import { createEngine as createReference } from "../../docs/examples/reference-engine.mjs";

function pairTradeOff(decision) {
  return decision.action === "trade-off" && decision.cards[0] === decision.cards[1];
}

export function createEngine() {
  const reference = createReference();
  return {
    ...reference,
    async legalActions() {
      return (await reference.legalActions()).filter((d) => !pairTradeOff(d));
    },
    async apply(decision) {
      if (pairTradeOff(decision)) {
        throw Object.assign(new Error("a trade-off takes two different cards"),
                            { rule: "ACT-TRADE-1" });
      }
      await reference.apply(decision);
    },
  };
}
