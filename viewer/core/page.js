// The page's script: reads the JSON block, lists the games, and replays one step at a time.
// It draws the views it is given; it never computes one (the engine did, in Python).
"use strict";
const HK = (window.HK = {
  boards: {},
  replays: [],
  active: null,
  data: null,
});

HK.esc = function (value) {
  return String(value).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
};

HK.el = function (tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
};

// A game's steps, inflated from their base64 deflate form (once per game).
HK.inflate = async function (entry) {
  if (entry._payload) return entry._payload;
  const bytes = Uint8Array.from(atob(entry.z), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  const payload = JSON.parse(await new Response(stream).text());
  payload._views = {};
  entry._payload = payload;
  return payload;
};

// The views of one kind ("all" or a player's number) at every step, from their deltas.
HK.views = function (payload, which) {
  if (payload._views[which]) return payload._views[which];
  const out = [];
  let current = {};
  for (const d of payload.views[which]) {
    if ("v" in d) { out.push(d.v); continue; }
    current = Object.assign({}, current, d.s || {});
    for (const [k, items] of Object.entries(d.a || {})) current[k] = current[k].concat(items);
    for (const k of d.d || []) delete current[k];
    out.push(current);
  }
  payload._views[which] = out;
  return out;
};

// For the tests and the curious: the view a replay shows at a step.
HK.frame = async function (gameIndex, step, which) {
  const payload = await HK.inflate(HK.data.games[gameIndex]);
  return HK.views(payload, String(which))[step];
};

HK.genericBoard = function (frame) {
  return '<pre class="json">' + HK.esc(JSON.stringify(frame, null, 1)) + "</pre>";
};

class Replay {
  constructor(root, entry, index, startStep) {
    this.root = root;
    this.entry = entry;
    this.index = index;
    this.step = 0;
    this.startStep = startStep;
    this.which = null;
    root.classList.add("replay");
    root.innerHTML = "";
    const bar = HK.el("div", {class: "controls", role: "toolbar", "aria-label": "Step through the game"});
    const viewLabel = HK.el("label", {}, "View ");
    this.select = HK.el("select", {class: "view-switch", "aria-label": "Whose view to show"});
    viewLabel.appendChild(this.select);
    bar.appendChild(viewLabel);
    const button = (cls, text, label, go) => {
      const b = HK.el("button", {type: "button", class: cls, "aria-label": label, title: label}, text);
      b.addEventListener("click", () => { HK.active = this; go(); });
      bar.appendChild(b);
      return b;
    };
    button("first", "\u00AB", "First step (Home)", () => this.go(0));
    button("prev", "\u25C0", "Previous step (Left arrow)", () => this.go(this.step - 1));
    this.slider = HK.el("input", {type: "range", class: "slider", min: "0", max: "0", value: "0", "aria-label": "Step"});
    bar.appendChild(this.slider);
    button("next", "\u25B6", "Next step (Right arrow)", () => this.go(this.step + 1));
    button("last", "\u00BB", "Last step (End)", () => this.go(this.last()));
    this.where = HK.el("span", {class: "where", "aria-live": "polite"});
    bar.appendChild(this.where);
    root.appendChild(bar);
    const stage = HK.el("div", {class: "stage"});
    this.board = HK.el("div", {class: "board"});
    stage.appendChild(this.board);
    const side = HK.el("div", {class: "side"});
    this.happened = HK.el("div", {class: "happened", "aria-live": "polite"});
    side.appendChild(this.happened);
    this.endBox = HK.el("div", {class: "end"});
    side.appendChild(this.endBox);
    side.appendChild(HK.el("h3", {}, "Decisions"));
    this.list = HK.el("ol", {class: "decisions", start: "1"});
    side.appendChild(this.list);
    stage.appendChild(side);
    root.appendChild(stage);
    this.slider.addEventListener("input", () => { HK.active = this; this.go(Number(this.slider.value)); });
    this.select.addEventListener("change", () => { this.which = this.select.value; this.draw(); });
    root.addEventListener("keydown", (e) => { HK.active = this; HK.key(e); });
    root.addEventListener("focusin", () => { HK.active = this; });
    HK.replays.push(this);
    this.ready = this.load();
  }

  async load() {
    if (!this.entry.z) {
      this.board.textContent = this.entry.verdict || "no steps";
      return;
    }
    this.payload = await HK.inflate(this.entry);
    // "everything" first, then the players in order (an object's number-like keys come first).
    const which = Object.keys(this.payload.views).sort((a, b) => (a === "all" ? -1 : b === "all" ? 1 : Number(a) - Number(b)));
    this.select.innerHTML = "";
    for (const w of which) {
      this.select.appendChild(HK.el("option", {value: w}, w === "all" ? "everything" : "player " + w + " sees"));
    }
    this.which = which[0];
    this.slider.max = String(this.last());
    this.list.innerHTML = "";
    this.payload.steps.forEach((s, k) => {
      const li = HK.el("li");
      const b = HK.el("button", {type: "button", class: "decision", "data-step": String(k + 1)});
      b.addEventListener("click", () => { HK.active = this; this.go(k + 1); });
      li.appendChild(b);
      this.list.appendChild(li);
    });
    this.label();
    this.ending();
    this.go(this.startStep === undefined ? 0 : this.startStep);
  }

  // The end of the game, or its forfeit (a tournament's game): of another seat's forfeit a
  // player's view shows who and why in a word only; its message, the bot's words and the
  // request it got (its own view) show in "everything" and in that seat's view.
  ending() {
    const end = this.entry.end;
    const f = this.entry.forfeit;
    const bots = this.entry.bots
      ? "<p class=\"bots\">" + HK.esc(this.entry.bots.map((b, p) => "P" + p + " " + b).join(" \u00B7 ")) + "</p>" : "";
    if (!end && f) {
      const own = this.which === "all" || Number(this.which) === f.seat;
      this.endBox.innerHTML = bots + "<h3>The forfeit</h3><p class=\"forfeit\">" +
        HK.esc(f.bot + " (seat " + f.seat + "): " + f.kind + (f.rule ? " [" + f.rule + "]" : "")) + "</p>" +
        (own
          ? "<p class=\"message\">" + HK.esc(f.message + (f.exit ? " (" + f.exit + ")" : "")) + "</p>" +
            (f.answer !== null && f.answer !== undefined ? "<p>answer: <code class=\"answer\">" + HK.esc(f.answer) + "</code></p>" : "") +
            (f.stderr_line ? "<p>stderr: <code class=\"stderr\">" + HK.esc(f.stderr_line) + "</code></p>" : "") +
            (f.request ? "<details><summary>the request it got</summary><pre class=\"request\">" + HK.esc(JSON.stringify(f.request)) + "</pre></details>" : "")
          : "");
      this.endedFor = this.which;
      return;
    }
    this.endBox.innerHTML = bots + (end
      ? "<h3>The end</h3><p class=\"result\">" + HK.esc(end.text) + "</p>" +
        "<p>winners: <b class=\"winners\">" + HK.esc(end.winners.map((w) => "player " + w).join(", ")) + "</b>" +
        " \u00B7 reason: <b class=\"reason\">" + HK.esc(end.reason) + "</b></p>" +
        (end.scores ? "<p>scores: <span class=\"scores\">" + HK.esc(end.scores.map((s, p) => "P" + p + " " + s).join(", ")) + "</span></p>" : "") +
        (end.standing ? Object.entries(end.standing).map(([k, v]) => "<p>" + HK.esc(k) + ": <span class=\"standing\" data-what=\"" + HK.esc(k) + "\">" + HK.esc(v.map((x, p) => "P" + p + " " + x).join(", ")) + "</span></p>").join("") : "")
      : "<h3>The end</h3><p class=\"result\">unfinished</p>");
    this.endedFor = this.which;
  }

  last() { return this.payload ? this.payload.steps.length : 0; }

  // A step's text in the view shown: the decision in full for "everything", else the text the
  // engine made from that player's views (an opponent's secret is "secret ?"). A step without
  // one shows nothing of the decision rather than the full text.
  text(s) {
    if (this.which === "all") return s.text;
    const seen = s.seen && s.seen[Number(this.which)];
    return typeof seen === "string" ? seen : "(hidden)";
  }

  // The decision list's texts, for the view shown (again whenever the view changes).
  label() {
    const steps = this.payload.steps;
    for (const b of this.list.querySelectorAll("button.decision")) {
      const s = steps[Number(b.dataset.step) - 1];
      b.textContent = (s.who === "chance" ? "chance" : "P" + s.who) + ": " + this.text(s);
    }
    this.labelled = this.which;
  }

  go(step) {
    if (!this.payload) return;
    this.step = Math.max(0, Math.min(this.last(), step));
    this.slider.value = String(this.step);
    this.draw();
  }

  draw() {
    if (!this.payload) return;
    const frame = HK.views(this.payload, this.which)[this.step];
    const ctx = {which: this.which, player: this.which === "all" ? null : Number(this.which),
                 players: this.entry.players, step: this.step, entry: this.entry};
    const drawer = HK.boards[this.entry.game];
    this.board.innerHTML = drawer ? drawer(frame, ctx) : HK.genericBoard(frame);
    if (this.labelled !== this.which) this.label();
    if (this.endedFor !== this.which) this.ending();
    this.root.dataset.step = String(this.step);
    this.root.dataset.view = this.which;
    this.where.textContent = "step " + this.step + " of " + this.last();
    for (const b of this.list.querySelectorAll("button.decision")) {
      const on = Number(b.dataset.step) === this.step;
      b.classList.toggle("current", on);
      if (on) {
        b.setAttribute("aria-current", "step");
        if (this.list.scrollHeight > this.list.clientHeight) {
          this.list.scrollTop = b.offsetTop - this.list.offsetTop - this.list.clientHeight / 2;
        }
      } else b.removeAttribute("aria-current");
    }
    const s = this.payload.steps[this.step - 1];
    this.happened.innerHTML = s
      ? "<h3>What just happened</h3><p>" + HK.esc(s.who === "chance" ? "chance" : "player " + s.who) +
        ": <code>" + HK.esc(this.text(s)) + "</code></p><p class=\"rules\">rules: " +
        (s.rules.length ? s.rules.map((r) => "<span class=\"rule\">" + HK.esc(r) + "</span>").join(" ") : "\u2014") + "</p>"
      : "<h3>What just happened</h3><p>the start: nothing yet</p>";
  }
}
HK.Replay = Replay;

HK.key = function (e) {
  const r = HK.active;
  if (!r || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "SELECT" || (tag === "INPUT" && e.target.type !== "range")) return;
  const moves = {ArrowLeft: r.step - 1, ArrowRight: r.step + 1, Home: 0, End: r.last()};
  if (!(e.key in moves)) return;
  e.preventDefault();
  e.stopPropagation();
  r.go(moves[e.key]);
};

// The list of games (a page of them at a time) beside one replay.
HK.gameList = function (main, games) {
  const PER_PAGE = 50;
  const nav = HK.el("nav", {class: "games", "aria-label": "Games"});
  const head = HK.el("div", {class: "pager"});
  const pages = Math.max(1, Math.ceil(games.length / PER_PAGE));
  const button = (cls, text, label) => HK.el("button", {type: "button", class: cls, "aria-label": label, title: label}, text);
  const firstPage = button("page-first", "\u00AB", "First page of games");
  const prev = button("page-prev", "\u25C0", "Previous page of games");
  const next = button("page-next", "\u25B6", "Next page of games");
  const lastPage = button("page-last", "\u00BB", "Last page of games");
  // The page number to go to: typed, then Enter (or leaving the box).
  const number = HK.el("input", {type: "number", class: "page-number", min: "1", max: String(pages), value: "1",
                                 "aria-label": "Page of games (1 to " + pages + ")"});
  const where = HK.el("span", {class: "page-where"});
  const label = HK.el("label", {}, "page ");
  label.append(number, where);
  head.append(firstPage, prev, label, next, lastPage);
  nav.appendChild(HK.el("h2", {}, games.length + (games.length === 1 ? " game" : " games")));
  nav.appendChild(head);
  const list = HK.el("ol", {class: "game-list"});
  nav.appendChild(list);
  const view = HK.el("section", {class: "viewer", "aria-label": "Replay", tabindex: "-1"});
  main.append(nav, view);
  let page = 0;
  let current = -1;
  const show = (p) => {
    page = Math.max(0, Math.min(pages - 1, Number.isFinite(p) ? p : page));
    number.value = String(page + 1);
    where.textContent = " of " + pages;
    nav.dataset.page = String(page + 1);
    list.innerHTML = "";
    list.start = page * PER_PAGE + 1;
    for (let i = page * PER_PAGE; i < Math.min(games.length, (page + 1) * PER_PAGE); i++) {
      const g = games[i];
      const li = HK.el("li");
      const text = g.game ? g.label + " \u2014 " + (g.end ? g.end.text : g.forfeit ? "forfeit: " + g.forfeit.bot + " (seat " + g.forfeit.seat + "), " + g.forfeit.kind : "unfinished after " + g.length) : g.label + " \u2014 " + g.verdict;
      const b = HK.el("button", {type: "button", class: "game" + (g.game ? "" : " unreadable"), "data-index": String(i)}, text);
      if (i === current) b.classList.add("current");
      b.addEventListener("click", () => open(i));
      li.appendChild(b);
      list.appendChild(li);
    }
  };
  const open = (i) => {
    current = i;
    for (const b of list.querySelectorAll("button.game")) b.classList.toggle("current", Number(b.dataset.index) === i);
    HK.replays.length = 0;
    HK.active = new Replay(view, games[i], i);
    view.dataset.game = String(i);
  };
  firstPage.addEventListener("click", () => show(0));
  prev.addEventListener("click", () => show(page - 1));
  next.addEventListener("click", () => show(page + 1));
  lastPage.addEventListener("click", () => show(pages - 1));
  number.addEventListener("change", () => show(Math.trunc(Number(number.value)) - 1));
  number.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); show(Math.trunc(Number(number.value)) - 1); } });
  HK.showPage = show;
  HK.open = open;
  show(0);
  const first = games.findIndex((g) => g.game);
  if (first >= 0) open(first);
};

// A copy button copies the text of the block it names (a reproduction to paste); where the
// clipboard is refused (a page opened from disk may be), the text is selected for Ctrl+C.
HK.copy = async function (button) {
  const source = document.getElementById(button.dataset.copy);
  const text = source.textContent;
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch (e) {
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    try { copied = document.execCommand("copy"); } catch (e2) { copied = false; }
  }
  button.dataset.copied = copied ? "1" : "0";
  button.textContent = copied ? "Copied" : "Selected: press Ctrl+C";
};

HK.start = function () {
  const data = (HK.data = JSON.parse(document.getElementById("hk-data").textContent));
  const main = document.getElementById("main");
  if (data.kind === "games") {
    HK.gameList(main, data.games);
  }
  // Replays placed by the page (a divergence, a report's witnesses): opened when shown.
  for (const spot of document.querySelectorAll("[data-replay]")) {
    const i = Number(spot.dataset.replay);
    const step = spot.dataset.step === undefined ? undefined : Number(spot.dataset.step);
    const details = spot.closest("details");
    const mount = () => { if (!spot.dataset.mounted) { spot.dataset.mounted = "1"; HK.active = new Replay(spot, data.games[i], i, step); } };
    if (details && !details.open) details.addEventListener("toggle", mount, {once: true}); else mount();
  }
  for (const button of document.querySelectorAll("button.copy")) {
    button.addEventListener("click", () => HK.copy(button));
  }
  document.addEventListener("keydown", HK.key);
  document.body.dataset.ready = "1";
};
