// Maiko's board: the game board (face-down tiles, face-up friends and tiles, empty spaces), each
// maiko board as a 3 x 3 grid of its item spaces with their tiles, the tokens and the tutor
// cards. Drawn from the view JSON it is given; "everything" adds "under", the tile under each
// face-down space.
(function () {
  const FILL = {white: "#f1ede4", purple: "#8e5bb5", pink: "#e68bb0", green: "#5f9e57"};
  const INK = {white: "#333", purple: "#fff", pink: "#222", green: "#fff"};
  const TUTORS = ["Danna", "Oka-san", "One-san", "Sabanto"];
  const esc = HK.esc;
  const S = 34, GAP = 4, PER_ROW = 10;

  function tileMark(x, y, size, name, faint) {
    if (name === "friend") {  // a friend lying face down (under, in "everything")
      return `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="3" fill="#f6d27a" stroke="#444" opacity="${faint ? 0.35 : 1}"/>` +
        `<text x="${x + size / 2}" y="${y + size / 2 + 4}" text-anchor="middle" font-size="${Math.max(9, Math.round(size * 0.35))}" font-weight="bold" fill="#222">FR</text>`;
    }
    const [colour, item] = name.split("-");
    return `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="3" fill="${FILL[colour] || "#ccc"}" stroke="#444" opacity="${faint ? 0.35 : 1}"/>` +
      `<text x="${x + size / 2}" y="${y + size / 2 + 4}" text-anchor="middle" font-size="${Math.max(10, Math.round(size * 0.4))}" fill="${faint ? "#222" : INK[colour] || "#000"}">${esc(item)}</text>`;
  }

  function space(s, value, under, frame, x, y) {
    const pending = frame.pending === s, looked = (frame.looks || []).includes(s);
    const ring = pending || looked ? ` stroke="#b0305a" stroke-width="3"` : ` stroke="#444"`;
    let state, label, body;
    if (value === "down") {
      state = "down";
      label = `space ${s}: face down` + (under ? ` (${under})` : "");
      body = `<rect x="${x}" y="${y}" width="${S}" height="${S}" rx="3" fill="#3b3b4f"${ring}/>` +
        (under ? tileMark(x + 7, y + 7, S - 14, under, true) : "");
    } else if (value === "empty") {
      state = "empty";
      label = `space ${s}: empty`;
      body = `<rect x="${x}" y="${y}" width="${S}" height="${S}" rx="3" fill="none" stroke="#bbb" stroke-dasharray="3 3"/>`;
    } else if (value === "friend") {
      state = "friend";
      label = `space ${s}: a friend, face up`;
      body = `<rect x="${x}" y="${y}" width="${S}" height="${S}" rx="3" fill="#f6d27a"${ring}/>` +
        `<text x="${x + S / 2}" y="${y + S / 2 + 4}" text-anchor="middle" font-size="11" font-weight="bold">FR</text>`;
    } else {
      state = "up";
      label = `space ${s}: ${value}, face up`;
      body = tileMark(x, y, S, value, false) + (pending ? `<rect x="${x}" y="${y}" width="${S}" height="${S}" rx="3" fill="none"${ring}/>` : "");
    }
    if (pending) label += " (the first flip of a pair)";
    if (looked) label += " (looked at this visit)";
    return `<g class="space" data-space="${s}" data-state="${state}" data-tile="${esc(value === "down" ? under || "" : value)}" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>${body}</g>`;
  }

  function maikoBoard(p, board, x, y, frame, ctx) {
    const out = [];
    const hands = frame.tokens.hands;
    const colour = (frame.options.colours || "").split(",")[p] || "";
    const you = ctx.player === p ? " (you)" : "";
    const scoreText = frame.result && frame.result.scores ? ` \u00B7 score ${frame.result.scores[p]}` : "";
    // Two lines, so that a board's label (a score with it) stays within its 200 pixels.
    out.push(`<text x="${x}" y="${y - 20}" font-size="12" font-weight="bold">player ${p} (${esc(colour)})${you}</text>`);
    out.push(`<text x="${x}" y="${y - 6}" font-size="12">tokens ${hands[p]}${scoreText}</text>`);
    out.push(`<g class="maiko-board" data-player="${p}" role="img" aria-label="player ${p}'s maiko board">`);
    const C = 60;
    board.forEach((tiles, item) => {
      const cx = x + (item % 3) * (C + 3), cy = y + Math.floor(item / 3) * (C + 3);
      const label = `player ${p}, item space ${item}: ` + (tiles.length ? tiles.join(", ") : "empty");
      out.push(`<g class="cell" data-player="${p}" data-item="${item}" data-tiles="${esc(tiles.join(","))}" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>`);
      out.push(`<rect x="${cx}" y="${cy}" width="${C}" height="${C}" rx="4" fill="#faf7f0" stroke="#999"/>`);
      out.push(`<text x="${cx + 3}" y="${cy + 11}" font-size="9" fill="#999">${item}</text>`);
      tiles.forEach((t, i) => { out.push(tileMark(cx + 4 + (i % 3) * 18, cy + 14 + Math.floor(i / 3) * 22, 17, t, false)); });
      out.push("</g>");
    });
    out.push("</g>");
    return out.join("");
  }

  // The engine's current_player: a player's number, or chance (-1) and the end (-4) as
  // OpenSpiel numbers them (or their names).
  function toPlay(cp) {
    if (cp === -1 || cp === "chance") return "chance (the layout)";
    if (cp === -4 || cp === "terminal") return "nobody: the game is over";
    return "player " + cp;
  }

  HK.boards.maiko = function (frame, ctx) {
    const n = frame.board.length, rows = Math.ceil(n / PER_ROW);
    const boardW = PER_ROW * (S + GAP), boardH = rows * (S + GAP);
    const players = frame.maiko_boards.length;
    const W = 24 + boardW + 30 + 200, mbY = 30 + boardH + 40;
    const perLine = 4, mbRows = Math.ceil(players / perLine);
    const H = mbY + mbRows * 220 + 10;
    const who = ctx.player === null ? "everything" : `player ${ctx.player}'s view`;
    const out = [`<svg xmlns="http://www.w3.org/2000/svg" width="${Math.max(W, 24 + players * 200)}" height="${H}" role="img" aria-labelledby="mk-board-title">`];
    out.push(`<title id="mk-board-title">Maiko, turn ${frame.turn}, ${esc(frame.phase)} (${who})</title>`);
    out.push(`<text x="24" y="20" font-size="13">turn ${frame.turn} \u00B7 ${esc(frame.phase)} \u00B7 to play: ${esc(toPlay(frame.current_player))}</text>`);
    out.push(`<g class="game-board" role="img" aria-label="the game board">`);
    frame.board.forEach((value, s) => {
      const x = 24 + (s % PER_ROW) * (S + GAP), y = 30 + Math.floor(s / PER_ROW) * (S + GAP);
      out.push(space(s, value, frame.under ? frame.under[s] : null, frame, x, y));
    });
    out.push("</g>");
    // Tokens and tutor cards.
    const tx = 24 + boardW + 30;
    const tk = frame.tokens;
    out.push(`<g class="tokens" data-pool="${tk.pool}" data-hands="${tk.hands.join(",")}" data-tutors="${tk.tutor_cards.join(",")}" role="img" aria-label="tokens: pool ${tk.pool}; hands ${tk.hands.join(", ")}">`);
    out.push(`<text x="${tx}" y="42" font-size="12" font-weight="bold">tokens</text>`);
    out.push(`<text x="${tx}" y="60" font-size="12">pool: ${tk.pool}</text>`);
    tk.hands.forEach((h, p) => out.push(`<text x="${tx}" y="${78 + p * 16}" font-size="12">player ${p}: ${h}</text>`));
    const ty = 90 + tk.hands.length * 16;
    out.push(`<text x="${tx}" y="${ty}" font-size="12" font-weight="bold">tutor cards</text>`);
    tk.tutor_cards.forEach((c, i) => {
      const y = ty + 8 + i * 30;
      out.push(`<g class="tutor" data-tutor="${i}" data-tokens="${c}"><title>${TUTORS[i]}: ${c} tokens</title>` +
        `<rect x="${tx}" y="${y}" width="150" height="24" rx="4" fill="#f3e9f5" stroke="#8e5bb5"/>` +
        `<text x="${tx + 6}" y="${y + 16}" font-size="12">${TUTORS[i]}: ${c}</text></g>`);
    });
    out.push("</g>");
    out.push(`<text x="${tx}" y="${ty + 140}" font-size="11" fill="#555">discarded: ${frame.discarded.length}</text>`);
    if (frame.row_discard) out.push(`<text x="${tx}" y="${ty + 156}" font-size="11" fill="#b0305a">row discard: row ${frame.row_discard.row}</text>`);
    if (frame.result) {
      out.push(`<text class="result" x="${tx}" y="${ty + 176}" font-size="13" font-weight="bold" fill="#b0305a">winners: ${esc(frame.result.winners.join(", "))} (${esc(frame.result.reason)})</text>`);
    }
    frame.maiko_boards.forEach((board, p) => {
      out.push(maikoBoard(p, board, 24 + (p % perLine) * 200, mbY + Math.floor(p / perLine) * 220, frame, ctx));
    });
    out.push("</svg>");
    return out.join("");
  };
})();
