// The page's range-analytics tab: board hits (POST /api/hits) and equity distributions
// (POST /api/distribution/stream: progress and Stop, as the equity tab) drawn as a hand-written
// SVG chart. No poker logic here; it uses the helpers of app.js ($, $$, el, api, streamed,
// submitForm, pct, count).
"use strict";

const COLORS = ["#157347", "#d64545", "#1f6fd1", "#e0a100", "#7a3fb5", "#1a9aa0", "#b5651d", "#555"];

// SVG elements take the namespace of the page's own <svg id="dist-svg"> (set by the HTML parser).
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS($("#dist-svg").namespaceURI, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

// The bar's width is set through the DOM: the page's Content-Security-Policy refuses style
// attributes.
function hitsBar(percent) {
  const bar = el("span", { class: "hits-bar" });
  bar.style.width = `${Math.min(100, percent).toFixed(1)}%`;
  return bar;
}

// Each form lists the games its route takes: the board games (hits and distributions alike).
async function fillGames() {
  const data = await api("/api/games");
  for (const select of $$(".analytics-game")) {
    const games = data.games.filter((g) => !g.is_stud);
    select.replaceChildren(...games.map((g) => el("option", { value: g.name, text: g.title })));
  }
}

function countRows(items, indent = "") {
  const rows = [];
  for (const c of items) {
    rows.push(el("tr", { class: c.combos ? "" : "zero" },
      el("td", { text: indent + c.name }),
      el("td", { class: "num", text: count(c.combos) }),
      el("td", { class: "num", text: Number(c.weight.toFixed(4)).toString() }),
      el("td", { class: "num" }, hitsBar(c.percent), el("span", { text: `${c.percent.toFixed(2)}%` }))));
    if (c.detail) rows.push(...countRows(c.detail, "\u2003"));
  }
  return rows;
}

function renderHits(data) {
  $("#hits-title").textContent =
    `${data.range} on ${data.board}: ${counted(data.combos, "combo")}, weight ${data.weight}`;
  const head = (first) => el("thead", {}, el("tr", {},
    ...[first, "combos", "weight", "% of range"].map((h) => el("th", { text: h }))));
  $("#hits-made").replaceChildren(head("made hand"), el("tbody", {}, ...countRows(data.categories)));
  const draws = $("#hits-draws");
  draws.hidden = data.draws.length === 0;
  draws.replaceChildren(head("draw"), el("tbody", {}, ...countRows(data.draws)));
  $("#hits-results").hidden = false;
}

// One step curve per player: combos sorted by increasing equity, x = cumulative weight.
function curvePath(combos, x, y) {
  const sorted = [...combos].sort((a, b) => a.equity - b.equity);
  let share = 0;
  let d = `M ${x(0)} ${y(sorted.length ? sorted[0].equity : 0)}`;
  for (const c of sorted) {
    d += ` V ${y(c.equity)}`;
    share += c.weight;
    d += ` H ${x(Math.min(1, share))}`;
  }
  return d;
}

function renderDistribution(data) {
  // the legend gets its own rows above the plot: inside it, curves crossed it
  const legend = 16 * data.players.length;
  const width = 640, left = 48, right = 16, top = 12 + legend, bottom = 40;
  const height = 360 + legend;
  const x = (f) => (left + f * (width - left - right)).toFixed(1);
  const y = (e) => (top + (1 - e) * (height - top - bottom)).toFixed(1);
  const chart = $("#dist-svg");
  chart.setAttribute("viewBox", `0 0 ${width} ${height}`);
  chart.replaceChildren();
  for (let t = 0; t <= 100; t += 20) {
    chart.append(
      svg("line", { x1: x(t / 100), x2: x(t / 100), y1: y(0), y2: y(1), class: "grid" }),
      svg("line", { x1: x(0), x2: x(1), y1: y(t / 100), y2: y(t / 100), class: "grid" }),
      svg("text", { x: x(t / 100), y: height - bottom + 16, "text-anchor": "middle" }, `${t}%`),
      svg("text", { x: left - 6, y: Number(y(t / 100)) + 4, "text-anchor": "end" }, `${t}%`));
  }
  chart.append(svg("text", { x: x(0.5), y: height - 6, "text-anchor": "middle" },
    "percent of range (combos sorted by equity)"));
  data.players.forEach((p, i) => {
    const color = COLORS[i % COLORS.length];
    chart.append(svg("path", { d: curvePath(p.combos, x, y), stroke: color, class: "curve" }));
    chart.append(svg("text", { x: Number(x(0)), y: 14 + 16 * i, fill: color, class: "legend" },
      `${p.input}: ${pct(p.equity)}`));
  });
  $("#dist-title").textContent =
    `Equity distribution, board ${data.board || "(none)"} (${data.method})`;
  $("#dist-results").hidden = false;
}

function setupAnalytics() {
  const hitsForm = $("#hits-form");
  hitsForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { range: $("#hits-range").value, board: $("#hits-board").value,
      game: $("#hits-game").value, dead: $("#hits-dead").value };
    submitForm(hitsForm, () => api("/api/hits", body), renderHits);
  });
  const distForm = $("#dist-form");
  distForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const villains = $("#dist-villains").value.split("\n").map((v) => v.trim()).filter(Boolean);
    const body = { hero: $("#dist-hero").value, villains, board: $("#dist-board").value,
      game: $("#dist-game").value };
    submitForm(distForm, () => streamed(distForm, "distribution", body), renderDistribution);
  });
  fillGames().catch((error) => { $(".form-error", hitsForm).textContent = String(error.message); });
}

document.addEventListener("DOMContentLoaded", setupAnalytics);
