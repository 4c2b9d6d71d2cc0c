// The club board: the evening's data arrives by server-sent events (/events) and is drawn here.
// Names are set as text (never as HTML). window.boardLog records when each match state was shown.
"use strict";

const COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e"];

// The page's language: ?lang=fi or ?lang=en, else the browser's first choice of the two (English by default).
const LANG = (() => {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked === "fi" || asked === "en") return asked;
  const first = (navigator.languages || [navigator.language]).map((l) => String(l).split("-")[0].toLowerCase()).find((l) => l === "fi" || l === "en");
  return first || "en";
})();
const TEXTS = {
  en: {
    title: "Club evening", locale: "en-GB", loading: "Loading the tables…", connecting: "connecting…", live: "live",
    reconnecting: "reconnecting…", won: (w, n) => `won: ${w}`, unreadable: "log unreadable", playing: "playing",
    round: (n, next) => `playing · round ${n}` + (next ? ` · ${next} to play` : ""),
    between: (n, next) => `playing · round ${n} over` + (next ? ` · ${next} starts round ${n + 1}` : ""),
    imported: (n, between) => `left unfinished` + (n ? ` ${between ? "after" : "in"} round ${n}` : "") + ` (imported)`,
    quiet: (n, minutes) => (n ? `round ${n} · ` : "") + `no move for ${minutes} min`,
    goal: (name, m) => m.title, last: "Last: ", earlier: (done) => `Earlier here: ${done}`,
    earlierWon: (w, n, scores, game) => `${game}: ${w} won (${scores})`, unfinished: (game, scores) => `${game} left unfinished (${scores})`,
    shared: "Two tables use this name: give each its own in the app's settings (This table's name).",
    empty: "No table has played tonight yet: a table appears here as soon as its match begins.",
    since: (day, time) => `${day}, from ${time}`, hole: (name, score, hole, holes) => `${name}: ${score}, hole ${hole} of ${holes}`,
    tonight: "Tonight", seasonTitle: "Season", season: (since) => `Season (since ${since})`,
    day: (iso) => iso, noFinished: "No finished match yet.",
    stillPlaying: (n) => `${n} match${n === 1 ? "" : "es"} still playing: counted when finished.`,
    leftUnfinished: (n) => `${n} match${n === 1 ? "" : "es"} left unfinished: counted if finished later.`,
    units: { "points": "points", "raw points": "raw points" },
    head: [["#", "place"], ["player", "player"], ["played", "matches played"], ["won", "matches won alone"],
      ["shared", "wins shared"], ["for", "points for"], ["against", "points against (the best opponent's)"], ["per move", "points per move"]],
  },
  fi: {
    title: "Kerhoilta", locale: "fi-FI", loading: "Pöytiä ladataan…", connecting: "yhdistetään…", live: "suorana",
    reconnecting: "yhdistetään uudelleen…", won: (w, n) => `${n > 1 ? "voittivat" : "voitti"}: ${w}`, unreadable: "lokia ei voi lukea", playing: "käynnissä",
    round: (n, next) => `käynnissä · kierros ${n}` + (next ? ` · vuorossa ${next}` : ""),
    between: (n, next) => `käynnissä · kierros ${n} päättyi` + (next ? ` · kierroksen ${n + 1} aloittaa ${next}` : ""),
    imported: (n, between) => `jäi kesken` + (n ? (between ? ` kierroksen ${n} jälkeen` : ` kierroksella ${n}`) : "") + ` (tuotu)`,
    quiet: (n, minutes) => (n ? `kierros ${n} · ` : "") + `ei siirtoa ${minutes} minuuttiin`,
    // (A match whose log could not be read has no goal to tell: its own title.)
    goal: (name, m) => m.target === undefined ? m.title
      : `${name}: ensin ${m.target} pisteeseen` + (m.per_hole > 1 ? ` (reikä = ${m.per_hole} pistettä)` : ""),
    last: "Viimeisin siirto: ", earlier: (done) => `Aiemmin tässä pöydässä: ${done}`,
    earlierWon: (w, n, scores, game) => `${game}: ${w} ${n > 1 ? "voittivat" : "voitti"} (${scores})`,
    unfinished: (game, scores) => `${game} jäi kesken (${scores})`,
    shared: "Kaksi pöytää käyttää tätä nimeä: anna kummallekin oma nimi sovelluksen asetuksissa (Tämän pöydän nimi).",
    empty: "Yksikään pöytä ei ole vielä pelannut tänä iltana: pöytä tulee näkyviin heti, kun sen ottelu alkaa.",
    since: (day, time) => `${day} klo ${time} alkaen`, hole: (name, score, hole, holes) => `${name}: ${score}, reikä ${hole}/${holes}`,
    tonight: "Tänä iltana", seasonTitle: "Kausi", season: (since) => `Kausi (${since} alkaen)`,
    day: (iso) => iso.split("-").reverse().map(Number).join("."), noFinished: "Ei vielä päättyneitä otteluita.",
    stillPlaying: (n) => `${n} ${n === 1 ? "ottelu" : "ottelua"} vielä käynnissä: lasketaan mukaan, kun ${n === 1 ? "se päättyy" : "ne päättyvät"}.`,
    leftUnfinished: (n) => `${n} ${n === 1 ? "ottelu" : "ottelua"} jäi kesken: lasketaan mukaan, jos ${n === 1 ? "se pelataan" : "ne pelataan"} myöhemmin loppuun.`,
    units: { "points": "pisteet", "raw points": "raakapisteet" },
    head: [["#", "sija"], ["pelaaja", "pelaaja"], ["pelattu", "pelatut ottelut"], ["voitot", "yksin voitetut ottelut"],
      ["jaetut", "jaetut voitot"], ["omat", "omat pisteet"], ["vastaan", "parhaan vastustajan pisteet"],
      ["per siirto", "pisteitä siirtoa kohden"]],
  },
};
const T = TEXTS[LANG];
const SVG = "http://www.w3.org/2000/svg";
window.boardLog = [];  // [match id, lines, ms since the epoch] when a state of the match was first on screen
const shown = new Map();  // match id -> lines shown
let lastTables = null;  // the last tables' data and when it came: the quiet badges are redrawn as time passes
let lastTablesAt = 0;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// One track of the cribbage board: holes in fives, the game hole at the end, two pegs (the back one
// at the score before the last change, faded).
function track(side, colour, holes) {
  const step = 7, gap = 4, left = 9, height = 26, mid = 13;
  const x = (i) => left + i * step + Math.floor(i / 5) * gap;
  const width = x(holes) + 9;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "track", role: "img",
    "aria-label": T.hole(side.name, side.score, side.hole, holes) });
  root.append(svg("rect", { x: 0.75, y: 0.75, width: width - 1.5, height: height - 1.5, rx: 6, fill: "#c8a165", stroke: "#5a3d1a", "stroke-width": 1.5 }));
  for (let i = 0; i <= holes; i++) root.append(svg("circle", { cx: x(i), cy: mid, r: i % 5 === 0 ? 1.9 : 1.4, fill: "#3b2a12" }));
  root.append(svg("line", { x1: x(holes), y1: 3, x2: x(holes), y2: height - 3, stroke: "#7a0000", "stroke-width": 2 }));
  if (side.back_hole !== side.hole) {
    root.append(svg("circle", { cx: x(side.back_hole), cy: mid, r: 5.5, fill: colour, "fill-opacity": 0.4, stroke: "#000", "stroke-width": 0.8 }));
  }
  root.append(svg("circle", { cx: x(side.hole), cy: mid, r: 6.5, fill: colour, stroke: "#000", "stroke-width": 1.2, class: "peg" }));
  return root;
}

// Minutes since the match last changed, by the server's clock (the time the data was sent), not the browser's.
function quietMinutes(m) {
  if (!m.updated_at || !lastTables) return 0;
  const since = Date.parse(lastTables.sent || lastTables.generated) - Date.parse(m.updated_at) + (Date.now() - lastTablesAt);
  return Math.floor(since / 60000);
}

function badge(m) {
  if (m.status === "finished") return el("span", { class: "badge finished" }, T.won(m.winners.join(" & "), m.winners.length));
  if (m.status === "unreadable") return el("span", { class: "badge unreadable" }, T.unreadable);
  if (m.live === false) return el("span", { class: "badge quiet" }, T.imported(m.round, m.between_rounds));  // (as the standings count it: left)
  const quiet = quietMinutes(m);
  if (quiet >= (lastTables.quiet_minutes || 15)) return el("span", { class: "badge quiet" }, T.quiet(m.round, quiet));
  const said = !m.round ? T.playing : m.between_rounds ? T.between(m.round, m.next) : T.round(m.round, m.next);
  return el("span", { class: "badge playing" }, said);
}

function tableCard(t) {
  const m = t.match;
  const card = el("article", { class: `table ${m.status}`, "data-id": m.id, "data-lines": m.lines });
  card.append(el("header", {}, el("h2", {}, t.table), el("span", { class: "game" }, T.goal(m.title.split(":")[0], m)), badge(m)));
  m.sides.forEach((side, i) => {
    const who = el("span", { class: "who" + (side.to_play ? " to-play" : "") + (side.won ? " won" : ""), title: side.players.join(", ") }, side.name);
    card.append(el("div", { class: "side" }, who, el("span", { class: "score" }, side.score), track(side, COLOURS[i % COLOURS.length], m.holes)));
  });
  // (A match stored before the board kept its Finnish words is told in English.)
  card.append(el("p", { class: "last" }, el("span", { class: "label" }, T.last), (LANG === "fi" && m.last_move_fi) || m.last_move));
  if (t.shared_name) card.append(el("p", { class: "shared" }, T.shared));
  if (t.earlier.length) card.append(el("p", { class: "earlier" }, T.earlier(t.earlier.map(earlierText).join("; "))));
  return card;
}

// A match played earlier at the table: the game, who won and by what (the winners' score first), or what was left unfinished.
function earlierText(e) {
  const entries = Object.entries(e.scores);
  if (e.status !== "finished") return T.unfinished(e.title.split(":")[0], entries.map(([name, score]) => `${name} ${score}`).join(", "));
  const won = (name) => e.winners.some((w) => name.split(" & ").includes(w));
  // (each score with whose it is, and the game: a table plays Horse Race and Seven Rocks in one evening)
  const scores = [...entries.filter(([name]) => won(name)), ...entries.filter(([name]) => !won(name))].map(([name, score]) => `${name} ${score}`);
  return T.earlierWon(e.winners.join(" & "), e.winners.length, scores.join(", "), e.title.split(":")[0]);
}

function renderTables(data) {
  if (data !== lastTables) { lastTables = data; lastTablesAt = Date.now(); }
  const box = document.getElementById("tables");
  const cards = data.tables.map(tableCard);
  if (!cards.length) cards.push(el("p", { class: "empty" }, T.empty));
  box.replaceChildren(...cards);
  const since = new Date(data.evening_start);
  document.getElementById("since").textContent = T.since(since.toLocaleDateString(T.locale, { weekday: "long", day: "numeric", month: "long" }),
    since.toLocaleTimeString(T.locale, { hour: "2-digit", minute: "2-digit" }));
  const fresh = data.tables.map((t) => t.match).filter((m) => shown.get(m.id) !== m.lines);
  if (fresh.length) {
    requestAnimationFrame(() => {
      const at = Date.now();
      for (const m of fresh) { shown.set(m.id, m.lines); window.boardLog.push([m.id, m.lines, at]); }
    });
  }
}

function rankTable(game) {
  const th = (text, title, cls) => el("th", Object.assign({ title }, cls ? { class: cls } : {}), text);
  const wide = [false, false, false, false, false, false, true, true];  // (left out on a phone's narrow screen; a shared win kept)
  const head = el("tr", {}, ...T.head.map(([text, title], i) => th(text, title, wide[i] ? "wide" : "")));
  const rows = game.rows.map((r, i) => el("tr", {}, el("td", {}, r.place || i + 1), el("td", {}, r.player), el("td", {}, r.matches), el("td", {}, r.wins),
    el("td", {}, r.shared_wins), el("td", {}, r.points_for), el("td", { class: "wide" }, r.points_against),
    el("td", { class: "wide" }, r.points_per_move.toLocaleString(T.locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }))));
  return el("table", { class: "rank" }, el("thead", {}, head), el("tbody", {}, ...rows));
}

function renderBlock(id, title, block) {
  const box = document.getElementById(id);
  const parts = [el("h2", {}, title)];
  const games = Object.values(block.games);
  if (!games.length) parts.push(el("p", { class: "note" }, T.noFinished));
  for (const game of games) parts.push(el("h3", {}, `${game.title} (${T.units[game.unit] || game.unit})`), rankTable(game));
  if (block.playing) parts.push(el("p", { class: "note" }, T.stillPlaying(block.playing)));
  if (block.left) parts.push(el("p", { class: "note" }, T.leftUnfinished(block.left)));
  box.replaceChildren(...parts);
}

function renderStandings(data) {
  renderBlock("tonight", T.tonight, data.tonight);
  renderBlock("season", T.season(T.day(data.season.since)), data.season);
}

function setLive(on) {
  const live = document.getElementById("live");
  live.className = "live " + (on ? "on" : "off");
  live.textContent = on ? T.live : T.reconnecting;
}

// The page's own words in its language.
document.documentElement.lang = LANG;
document.title = T.title;
document.querySelector(".top h1").textContent = T.title;
document.getElementById("live").textContent = T.connecting;
document.querySelector("#tables .empty").textContent = T.loading;
document.querySelector("#tonight h2").textContent = T.tonight;
document.querySelector("#season h2").textContent = T.seasonTitle;

const events = new EventSource("/events");
events.addEventListener("open", () => setLive(true));
events.addEventListener("error", () => setLive(false));
events.addEventListener("tables", (e) => { setLive(true); renderTables(JSON.parse(e.data)); });
events.addEventListener("standings", (e) => renderStandings(JSON.parse(e.data)));
setInterval(() => { if (lastTables) renderTables(lastTables); }, 60000);
