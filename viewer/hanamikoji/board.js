// Hanamikoji's board: the seven geisha with their victory markers, each side's cards, the
// hands, secrets and trade-offs, the deck, and the offer awaiting an answer. Drawn from the
// view JSON it is given: "everything" (hands, secrets, trade_offs for both) or a player's view
// (their own cards, the other player's only as counts).
(function () {
  const CHARM = [2, 2, 2, 3, 3, 4, 5];
  const COLOURS = ["#8e44ad", "#c0392b", "#d4ac0d", "#2471a3", "#e67e22", "#17a589", "#b03a5b"];
  const esc = HK.esc;
  const W = 760, H = 560, COL = 62, X0 = 20, CW = 26, CH = 34;

  function card(x, y, g, place, what) {
    if (g === null) {
      return `<g class="card hidden" data-place="${place}" data-geisha="hidden" role="img" aria-label="${esc(what)}: a hidden card">` +
        `<title>${esc(what)}: a hidden card</title><rect x="${x}" y="${y}" width="${CW}" height="${CH}" rx="3" fill="#555" stroke="#222"/>` +
        `<text x="${x + CW / 2}" y="${y + CH / 2 + 4}" fill="#bbb" text-anchor="middle" font-size="12">?</text></g>`;
    }
    return `<g class="card" data-place="${place}" data-geisha="${g}" role="img" aria-label="${esc(what)}: geisha ${g} (charm ${CHARM[g]})">` +
      `<title>${esc(what)}: geisha ${g} (charm ${CHARM[g]})</title>` +
      `<rect x="${x}" y="${y}" width="${CW}" height="${CH}" rx="3" fill="${COLOURS[g]}" stroke="#222"/>` +
      `<text x="${x + CW / 2}" y="${y + 14}" fill="#fff" text-anchor="middle" font-size="13" font-weight="bold">${g}</text></g>`;
  }

  function row(x, y, cards, place, what, gap) {
    return cards.map((g, i) => card(x + i * (gap || CW + 3), y, g, place, what)).join("");
  }

  function hidden(n) { return Array.from({length: n || 0}, () => null); }

  // A player's hand, secret or trade-off: from "everything", from their own view, or as a
  // count of hidden cards when the view is the other player's.
  function place(frame, p, all, own, size) {
    if (frame[all]) return frame[all][p];
    if (frame.player === p) return frame[own] || [];
    return hidden(frame[size]);
  }

  HK.boards.hanamikoji = function (frame, ctx) {
    const out = [];
    const who = ctx.player === null ? "everything" : `player ${ctx.player}'s view`;
    out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="hk-board-title">`);
    out.push(`<title id="hk-board-title">Hanamikoji, round ${frame.round}, ${esc(frame.phase)}, turn ${frame.turn} (${who})</title>`);
    const yMid = H / 2 - 20;
    // Players: 1 at the top, 0 at the bottom.
    for (const p of [0, 1]) {
      const top = p === 1;
      const yHand = top ? 10 : H - CH - 10;
      const label = `player ${p}` + (frame.player === p ? " (you)" : "");
      out.push(`<text x="${X0}" y="${top ? yHand + CH + 14 : yHand - 6}" font-size="12" fill="#333">${esc(label)} \u2014 hand</text>`);
      out.push(`<g class="hand" data-player="${p}">` + row(X0, yHand, place(frame, p, "hands", "hand", "opponent_hand_size"), `hand-${p}`, `player ${p}'s hand`) + "</g>");
      const sx = X0 + 7 * COL + 30;
      out.push(`<text x="${sx}" y="${top ? yHand + CH + 14 : yHand - 6}" font-size="12" fill="#333">secret</text>`);
      out.push(`<g class="secret" data-player="${p}">` + row(sx, yHand, place(frame, p, "secrets", "secret", "opponent_secret_size"), `secret-${p}`, `player ${p}'s secret`) + "</g>");
      const tx = sx + 70;
      out.push(`<text x="${tx}" y="${top ? yHand + CH + 14 : yHand - 6}" font-size="12" fill="#333">trade-off</text>`);
      out.push(`<g class="trade-off" data-player="${p}">` + row(tx, yHand, place(frame, p, "trade_offs", "trade_off", "opponent_trade_off_size"), `trade-${p}`, `player ${p}'s trade-off`) + "</g>");
      const used = (frame.used || [[], []])[p];
      out.push(`<text x="${sx}" y="${top ? yHand + CH + 30 : yHand - 22}" font-size="11" fill="#666">actions used: ${esc(used.join(", ") || "none")}</text>`);
    }
    // The geisha, their markers, and each side's cards.
    for (let g = 0; g < 7; g++) {
      const x = X0 + g * COL;
      const m = frame.markers[g];
      out.push(`<g class="geisha" data-geisha="${g}"><title>geisha ${g}, charm ${CHARM[g]}</title>` +
        `<rect x="${x}" y="${yMid}" width="${COL - 8}" height="40" rx="5" fill="#fff" stroke="${COLOURS[g]}" stroke-width="3"/>` +
        `<text x="${x + (COL - 8) / 2}" y="${yMid + 17}" text-anchor="middle" font-size="13" font-weight="bold">${g}</text>` +
        `<text x="${x + (COL - 8) / 2}" y="${yMid + 33}" text-anchor="middle" font-size="11" fill="#555">charm ${CHARM[g]}</text></g>`);
      const my = m === null ? yMid + 20 : m === 1 ? yMid - 10 : yMid + 50;
      const owner = m === null ? "none" : String(m);
      const text = m === null ? `geisha ${g}'s marker: neutral` : `geisha ${g}'s marker: with player ${m}`;
      out.push(`<g class="marker" data-geisha="${g}" data-owner="${owner}" role="img" aria-label="${text}"><title>${text}</title>` +
        `<circle cx="${x + COL - 8}" cy="${my}" r="7" fill="${m === null ? "#fff" : COLOURS[g]}" stroke="#222" stroke-width="1.5"/></g>`);
      for (const p of [0, 1]) {
        const cards = frame.sides[p].filter((c) => c === g);
        // Stacked away from the geisha, each card's number (at its top) left in sight.
        const order = cards.map((c, i) => i);
        if (p === 1) order.reverse();
        for (const i of order) {
          const y = p === 1 ? yMid - 14 - CH - i * 19 : yMid + 56 + i * 19;
          out.push(card(x + 6, y, cards[i], `side-${p}`, `won by player ${p}`));
        }
      }
    }
    // The right column: round, deck, removed card, the offer awaiting an answer.
    const rx = X0 + 7 * COL + 30, ry = yMid - 40;
    out.push(`<text x="${rx}" y="${ry}" font-size="13">round ${frame.round} \u00B7 turn ${frame.turn} \u00B7 ${esc(frame.phase)}</text>`);
    const cp = frame.current_player;
    out.push(`<text x="${rx}" y="${ry + 18}" font-size="12" fill="#555">to play: ${esc(cp === "chance" ? "chance (the deal)" : cp === "terminal" ? "nobody: the game is over" : "player " + cp)}</text>`);
    out.push(`<g class="deck" data-count="${frame.deck_size}"><title>the deck: ${frame.deck_size} cards</title>` +
      `<rect x="${rx}" y="${ry + 28}" width="${CW}" height="${CH}" rx="3" fill="#555" stroke="#222"/>` +
      `<text x="${rx + CW + 8}" y="${ry + 50}" font-size="12">deck: ${frame.deck_size}</text></g>`);
    if (frame.removed !== undefined && frame.removed !== null) {
      out.push(`<text x="${rx + 100}" y="${ry + 50}" font-size="12">removed:</text>` + card(rx + 160, ry + 28, frame.removed, "removed", "the removed card"));
    }
    if (frame.pending) {
      const pd = frame.pending;
      out.push(`<text x="${rx}" y="${ry + 84}" font-size="12">offer awaiting an answer: ${esc(pd.action)}</text>`);
      if (pd.sets) {
        out.push(row(rx, ry + 92, pd.sets[0], "pending", "offered set A") + row(rx + 70, ry + 92, pd.sets[1], "pending", "offered set B"));
      } else {
        out.push(row(rx, ry + 92, pd.cards, "pending", "offered"));
      }
    }
    if (frame.result) {
      const r = frame.result;
      out.push(`<text class="result" x="${rx}" y="${ry + 150}" font-size="14" font-weight="bold" fill="#b0305a">${esc(r.winner === null ? "shared victory" : "player " + r.winner + " wins")} (${esc(r.reason)})</text>`);
    }
    out.push("</svg>");
    return out.join("");
  };
})();
