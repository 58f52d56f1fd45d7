// The range-analytics tab's flop report and preflop matrix: player 1's exact equity on every
// flop (POST /api/flops/stream) as a sortable table, and the exact heads-up preflop class matrix
// (POST /api/matrix/stream) as a grid of equities in colour; both with progress and Stop, as the
// equity tab. No poker logic here; it uses the helpers of app.js ($, $$, el, api, streamed,
// submitForm, pct, count, cardsIn, RANKS).
"use strict";

(() => {
  // Each form lists the games its route takes, from GET /api/games: the games with a flop, and
  // those whose hands are two-card classes (hold'em's range notation).
  const titles = {};  // a game's name -> its title, for the results' headings

  async function fillGames() {
    const data = await api("/api/games");
    for (const g of data.games) titles[g.name] = g.title;
    const options = (keep) => data.games.filter(keep)
      .map((g) => el("option", { value: g.name, text: g.title }));
    $("#flops-game").replaceChildren(...options((g) => g.board_sizes.includes(3)));
    $("#matrix-game").replaceChildren(...options((g) => g.range_syntax === "holdem"));
  }

  const lines = (text) => text.split("\n").map((v) => v.trim()).filter(Boolean);
  const classNames = (text) => text.split(/[\s,]+/).filter(Boolean);

  // ---- flops: one row per flop class, sorted by a click on a column's header -------------

  const FLOP_COLUMNS = [
    { key: "flop", label: "flop", text: (r) => r.flop },
    { key: "size", label: "flops", text: (r) => count(r.size) },
    { key: "probability", label: "probability", text: (r) => pct(r.probability, 3) },
    { key: "equity", label: "equity", text: (r) => pct(r.equity) },
    { key: "win", label: "win", text: (r) => pct(r.win) },
    { key: "tie", label: "tie", text: (r) => pct(r.tie) },
  ];
  const flops = { rows: [], key: "equity", descending: true };

  // A flop's place by its ranks, highest card first (its name as text sorted A, J, K, Q, T
  // after the nines); app.js's card reader and rank order (RANKS: aces first)
  function flopRank(flop) {
    const ranks = cardsIn(flop).map((c) => RANKS.length - 1 - RANKS.indexOf(c[0]))
      .sort((a, b) => b - a);
    return ranks.reduce((v, r) => v * RANKS.length + r, 0);
  }

  function flopRows(data) {
    return data.flops.map((flop, i) => ({ flop, size: data.size[i], probability: data.probability[i],
      equity: data.equity[i], win: data.win[i], tie: data.tie[i], order: i, rank: flopRank(flop) }));
  }

  function sortFlops(key) {
    flops.descending = flops.key === key ? !flops.descending : key !== "flop";
    flops.key = key;
    renderFlopTable();
  }

  function renderFlopTable() {
    const { key, descending } = flops;
    const sign = descending ? -1 : 1;
    const field = key === "flop" ? "rank" : key;  // flops by rank, not by their names' letters
    // ties keep the server's order (by equity, highest first)
    const rows = [...flops.rows].sort((a, b) =>
      (a[field] < b[field] ? -sign : a[field] > b[field] ? sign : a.order - b.order));
    const head = FLOP_COLUMNS.map((c) => el("th", {
      "aria-sort": c.key === key ? (descending ? "descending" : "ascending") : "none",
    }, el("button", { type: "button", class: "sort", "data-key": c.key, text: c.label,
      onclick: () => sortFlops(c.key) })));
    const body = rows.map((r) => el("tr", {}, ...FLOP_COLUMNS.map((c) =>
      el("td", { class: c.key === "flop" ? "hand" : "num", text: c.text(r) }))));
    $("#flops-table").replaceChildren(el("thead", {}, el("tr", {}, ...head)), el("tbody", {}, ...body));
  }

  function renderFlops(data) {
    flops.rows = flopRows(data);
    flops.key = "equity";
    flops.descending = true;
    renderFlopTable();
    const dead = data.dead ? `, dead ${data.dead}` : "";
    const game = titles[data.game] || data.game;
    $("#flops-title").textContent = `${data.players.join(" vs ")} (${game}${dead})`;
    $("#flops-summary").textContent =
      `${count(data.flops.length)} possible flop classes of ${count(data.classes)} ` +
      `(${data.symmetries} suit symmetries); mean equity ${pct(data.mean_equity, 3)} ` +
      `(the preflop equity); ${data.seconds.toFixed(2)} s`;
    $("#flops-results").hidden = false;
  }

  // ---- matrix: the row class's equity against the column class's, coloured ---------------

  const SCALE = [[214, 69, 69], [224, 161, 0], [47, 158, 85]]; // lose, tie, win (app.css)

  // The colour of an equity: red at 0, amber at 1/2, green at 1, mixed with white to keep the
  // text legible.
  function equityColor(equity) {
    const x = Math.min(1, Math.max(0, equity)) * 2;
    const [from, to] = x <= 1 ? [SCALE[0], SCALE[1]] : [SCALE[1], SCALE[2]];
    const t = x <= 1 ? x : x - 1;
    const mix = from.map((c, i) => Math.round((c + (to[i] - c) * t) * 0.55 + 255 * 0.45));
    return `rgb(${mix.join(", ")})`;
  }

  function matrixCell(data, i, j) {
    const cell = el("td", { class: "cell", text: (data.equity[i][j] * 100).toFixed(1),
      title: `${data.names[i]} vs ${data.names[j]}: equity ${pct(data.equity[i][j])}, ` +
        `win ${pct(data.win[i][j])}, tie ${pct(data.tie[i][j])}` });
    // through the DOM: the page's Content-Security-Policy refuses style attributes
    cell.style.backgroundColor = equityColor(data.equity[i][j]);
    return cell;
  }

  const matrixCells = () => $$("#matrix-table td.cell");

  // A cell's win and tie, said under the grid for the cell pointed at, tapped or focused (a
  // title shows on hover alone: not to touch or keyboard users); the grid is one Tab stop
  // (oneTabStop, set as it is drawn), moved by the arrow keys (roveGrid) a row's cells apart.
  function setupMatrixCells() {
    const table = $("#matrix-table");
    const say = (event) => {
      const cell = event.target.closest && event.target.closest("td.cell");
      if (cell) $("#matrix-detail").textContent = cell.title;
    };
    for (const type of ["pointerover", "click", "focusin"]) table.addEventListener(type, say);
    table.addEventListener("keydown", (event) => {
      const cell = event.target.closest("td.cell");
      if (cell) roveGrid(event, matrixCells(), $$("td.cell", cell.parentElement).length, () => true);
    });
  }

  function renderMatrix(data) {
    const head = el("tr", {}, el("th", { text: "" }),
      ...data.names.map((n) => el("th", { scope: "col", text: n })));
    const rows = data.names.map((name, i) => el("tr", {}, el("th", { scope: "row", text: name }),
      ...data.names.map((_, j) => matrixCell(data, i, j))));
    $("#matrix-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
    const n = data.names.length;
    oneTabStop($("#matrix-table"), matrixCells, () => true);
    $("#matrix-detail").textContent = "";
    const game = titles[data.game] || data.game;
    $("#matrix-title").textContent = `Preflop matrix, ${game}: ${n} x ${n} classes`;
    $("#matrix-summary").textContent =
      `${count(data.jobs)} exact runs (the other half mirrored) in ${data.seconds.toFixed(2)} s`;
    $("#matrix-results").hidden = false;
  }

  function setup() {
    setupMatrixCells();
    const flopsForm = $("#flops-form");
    flopsForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const body = { players: lines($("#flops-players").value), dead: $("#flops-dead").value,
        game: $("#flops-game").value };
      submitForm(flopsForm, () => streamed(flopsForm, "flops", body), renderFlops);
    });
    const matrixForm = $("#matrix-form");
    matrixForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const names = classNames($("#matrix-names").value);
      const body = { game: $("#matrix-game").value, ...(names.length ? { names } : {}) };
      submitForm(matrixForm, () => streamed(matrixForm, "matrix", body), renderMatrix);
    });
    for (const swatch of $$(".matrix-legend [data-equity]")) {
      swatch.style.backgroundColor = equityColor(Number(swatch.dataset.equity));
    }
    fillGames().catch((error) => {
      $(".form-error", flopsForm).textContent = `Could not load the games: ${error.message}`;
    });
  }

  document.addEventListener("DOMContentLoaded", setup);
})();
