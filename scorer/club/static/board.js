// The club board: the evening's data arrives by server-sent events (/events) and is drawn here.
// Names are set as text (never as HTML). window.boardLog records when each match state was shown.
"use strict";

const COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e"];
const SVG = "http://www.w3.org/2000/svg";
window.boardLog = [];  // [match id, lines, ms since the epoch] when a state of the match was first on screen
const shown = new Map();  // match id -> lines shown

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
    "aria-label": `${side.name}: ${side.score}, hole ${side.hole} of ${holes}` });
  root.append(svg("rect", { x: 0.75, y: 0.75, width: width - 1.5, height: height - 1.5, rx: 6, fill: "#c8a165", stroke: "#5a3d1a", "stroke-width": 1.5 }));
  for (let i = 0; i <= holes; i++) root.append(svg("circle", { cx: x(i), cy: mid, r: i % 5 === 0 ? 1.9 : 1.4, fill: "#3b2a12" }));
  root.append(svg("line", { x1: x(holes), y1: 3, x2: x(holes), y2: height - 3, stroke: "#7a0000", "stroke-width": 2 }));
  if (side.back_hole !== side.hole) {
    root.append(svg("circle", { cx: x(side.back_hole), cy: mid, r: 5.5, fill: colour, "fill-opacity": 0.4, stroke: "#000", "stroke-width": 0.8 }));
  }
  root.append(svg("circle", { cx: x(side.hole), cy: mid, r: 6.5, fill: colour, stroke: "#000", "stroke-width": 1.2, class: "peg" }));
  return root;
}

function badge(m) {
  if (m.status === "finished") return el("span", { class: "badge finished" }, `won: ${m.winners.join(" & ")}`);
  if (m.status === "unreadable") return el("span", { class: "badge unreadable" }, "log unreadable");
  const next = m.next ? ` · ${m.next} to play` : "";
  return el("span", { class: "badge playing" }, m.round ? `playing · round ${m.round}${next}` : "playing");
}

function tableCard(t) {
  const m = t.match;
  const card = el("article", { class: `table ${m.status}`, "data-id": m.id, "data-lines": m.lines });
  card.append(el("header", {}, el("h2", {}, t.table), el("span", { class: "game" }, m.title), badge(m)));
  m.sides.forEach((side, i) => {
    const who = el("span", { class: "who" + (side.to_play ? " to-play" : "") + (side.won ? " won" : ""), title: side.players.join(", ") }, side.name);
    card.append(el("div", { class: "side" }, who, el("span", { class: "score" }, side.score), track(side, COLOURS[i % COLOURS.length], m.holes)));
  });
  card.append(el("p", { class: "last" }, m.last_move));
  if (t.earlier.length) {
    const done = t.earlier.map((e) => e.status === "finished" ? `${e.winners.join(" & ")} won (${Object.values(e.scores).join("–")})` : "unfinished");
    card.append(el("p", { class: "earlier" }, `Earlier here: ${done.join("; ")}`));
  }
  return card;
}

function renderTables(data) {
  const box = document.getElementById("tables");
  const cards = data.tables.map(tableCard);
  if (!cards.length) cards.push(el("p", { class: "empty" }, "No table has played tonight yet: a table appears here with its first move."));
  box.replaceChildren(...cards);
  const since = new Date(data.evening_start);
  document.getElementById("since").textContent =
    `${since.toLocaleDateString([], { weekday: "long", day: "numeric", month: "long" })}, from ${since.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
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
  const head = el("tr", {}, th("#", "place"), th("player", "player"), th("pl.", "matches played"), th("won", "matches won alone"),
    th("sh.", "wins shared", "wide"), th("for", "points for"), th("agst", "points against (the best opponent's)", "wide"),
    th("/move", "points per move", "wide"));
  const rows = game.rows.map((r, i) => el("tr", {}, el("td", {}, i + 1), el("td", {}, r.player), el("td", {}, r.matches), el("td", {}, r.wins),
    el("td", { class: "wide" }, r.shared_wins), el("td", {}, r.points_for), el("td", { class: "wide" }, r.points_against),
    el("td", { class: "wide" }, r.points_per_move.toFixed(2))));
  return el("table", { class: "rank" }, el("thead", {}, head), el("tbody", {}, ...rows));
}

function renderBlock(id, title, block) {
  const box = document.getElementById(id);
  const parts = [el("h2", {}, title)];
  const games = Object.values(block.games);
  if (!games.length) parts.push(el("p", { class: "note" }, "No finished match yet."));
  for (const game of games) parts.push(el("h3", {}, `${game.title} (${game.unit})`), rankTable(game));
  if (block.playing) parts.push(el("p", { class: "note" }, `${block.playing} match${block.playing === 1 ? "" : "es"} still playing: counted when finished.`));
  box.replaceChildren(...parts);
}

function renderStandings(data) {
  renderBlock("tonight", "Tonight", data.tonight);
  renderBlock("season", `Season (since ${data.season.since})`, data.season);
}

function setLive(on) {
  const live = document.getElementById("live");
  live.className = "live " + (on ? "on" : "off");
  live.textContent = on ? "live" : "reconnecting…";
}

const events = new EventSource("/events");
events.addEventListener("open", () => setLive(true));
events.addEventListener("error", () => setLive(false));
events.addEventListener("tables", (e) => { setLive(true); renderTables(JSON.parse(e.data)); });
events.addEventListener("standings", (e) => renderStandings(JSON.parse(e.data)));
