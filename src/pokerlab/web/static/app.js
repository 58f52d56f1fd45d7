// pokerlab's simulator page: plain JavaScript, no dependencies, no build step.
// The page holds no poker logic: games, ranges, equities and outs all come from the JSON API,
// and every error message is the library's, shown next to the field it names.
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

const state = { games: [], game: null, gridNames: null };

// Every text from the user or the server goes in as text (textContent, text nodes), never as
// HTML; the server's Content-Security-Policy forbids inline script and style attributes.
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) node.append(child);
  return node;
}

const pct = (x, digits = 2) => `${(x * 100).toFixed(digits)}%`;
const count = (n) => Number(n).toLocaleString("en-US");
// "1 deal", "2 deals": a count and its noun, as the CLI's messages write them
const counted = (n, noun) => `${count(n)} ${noun}${Number(n) === 1 ? "" : "s"}`;

class ApiError extends Error {
  constructor(message, field, status, type = null) {
    super(message);
    this.field = field;
    this.status = status;
    this.type = type;
  }
}

async function failure(response) {
  let data = null;
  try { data = await response.json(); } catch (_) { data = null; }
  const error = data && data.error ? data.error : { message: `HTTP ${response.status}`, field: null };
  return new ApiError(error.message, error.field, response.status, error.type);
}

// A server still warming its workers answers 503 WarmingUp with Retry-After: the page waits and
// asks again (for at most a minute), saying so under the header, instead of showing an error.
const WARM_UP_PATIENCE_MS = 60000;

async function warmingUp(response) {
  if (response.status !== 503) return false;
  try { return (await response.clone().json()).error.type === "WarmingUp"; } catch (_) { return false; }
}

async function fetchReady(path, options) {
  const note = $("#server-note");
  const deadline = Date.now() + WARM_UP_PATIENCE_MS;
  for (;;) {
    const response = await fetch(path, options);
    if (!(await warmingUp(response)) || Date.now() > deadline) {
      note.hidden = true;
      return response;
    }
    const wait = Math.min(10, Math.max(1, Number(response.headers.get("retry-after")) || 2));
    note.textContent = `The server is still starting up; asking again in ${wait} s…`;
    note.hidden = false;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const response = await fetchReady(path, options);
  if (!response.ok) throw await failure(response);
  return response.json();
}

// ---- streamed runs: progress and Stop ----------------------------------------------------
// POST /api/{task}/stream (equity, outs, query, distribution) answers Server-Sent Events: start
// {id}, progress {fraction, elapsed, ...}, then result (the JSON of POST /api/{task}) or error.
// Stop posts the id to /api/stop: the run ends at once and its stream still answers (a sampled
// run with what it sampled). A form that streams holds a .stop button, a .progress box (a
// <progress> and a status text) and, where the runs carry estimates, a .progress-estimate line.

const runs = new Map(); // form -> its run in flight: {id, controller}

function parseEvent(block) {
  let kind = "message";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("event: ")) kind = line.slice(7);
    else if (line.startsWith("data: ")) data += line.slice(6);
  }
  return [kind, data ? JSON.parse(data) : null];
}

function streamError(error) {
  const message = error.type === "CancelledError" ? `Stopped: ${error.message}.` : error.message;
  return new ApiError(message, error.field, 422, error.type);
}

// The events of `response` until the answer: start enables `stop`, progress goes to `onProgress`.
async function readEvents(response, run, stop, onProgress) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const [kind, data] = parseEvent(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (kind === "start") { run.id = data.id; stop.disabled = false; }
      else if (kind === "progress") onProgress(data);
      else if (kind === "result") return data;
      else if (kind === "error") throw streamError(data.error);
    }
  }
  throw new ApiError("the server ended the stream without an answer", null, 0);
}

// Progress carries the fraction done and the seconds so far; Monte Carlo equity adds the
// running estimates: deals so far, each player's equity ± stderr.
function showProgress(form, progress) {
  $(".progress", form).hidden = false;
  $(".progress progress", form).value = progress.fraction;
  const parts = [`${(progress.fraction * 100).toFixed(0)}%`, `${progress.elapsed.toFixed(1)} s`];
  if (progress.samples !== undefined) parts.push(counted(progress.samples, "deal"));
  $(".progress [role=status]", form).textContent = parts.join(" · ");
  const estimate = $(".progress-estimate", form);
  if (estimate) {
    estimate.textContent = progress.equity === undefined ? ""
      : "So far: " + progress.equity.map((e, i) =>
        `player ${i + 1} ${pct(e)} ± ${progress.stderr[i] === null ? "unknown"
          : pct(progress.stderr[i], 3)}`).join(" · ");
  }
}

function resetProgress(form, running) {
  const stop = $(".stop", form);
  stop.textContent = "Stop";
  stop.disabled = true;
  stop.hidden = !running;
  if (!running) $(".progress", form).hidden = true;
  $(".progress progress", form).value = 0;
  $(".progress [role=status]", form).textContent = "";
  const estimate = $(".progress-estimate", form);
  if (estimate) estimate.textContent = "";
}

// Runs `body` through POST /api/{task}/stream with the progress bar and Stop button of `form`:
// the answer (the JSON of POST /api/{task}), or an ApiError (a stopped run: "Stopped: ...").
// A new run of the same form replaces the one in flight (which ends in an AbortError).
async function streamed(form, task, body) {
  const previous = runs.get(form);
  if (previous) previous.controller.abort();
  const run = { id: null, controller: new AbortController() };
  runs.set(form, run);
  resetProgress(form, true);
  try {
    const response = await fetchReady(`/api/${task}/stream`, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal: run.controller.signal,
    });
    if (!response.ok) throw await failure(response);
    return await readEvents(response, run, $(".stop", form), (data) => showProgress(form, data));
  } finally {
    if (runs.get(form) === run) {
      runs.delete(form);
      resetProgress(form, false);
    }
  }
}

async function stopRun(form) {
  const run = runs.get(form);
  if (!run || !run.id) return;
  const stop = $(".stop", form);
  stop.disabled = true;
  stop.textContent = "Stopping…";
  try { await api("/api/stop", { id: run.id }); } catch (_) { /* it had finished */ }
}

// Every Stop button stops its own form's run.
function setupStops() {
  for (const stop of $$("button.stop")) stop.addEventListener("click", () => stopRun(stop.form));
}

// ---- errors next to their fields -------------------------------------------------------

function clearErrors(form) {
  for (const p of $$(".field-error", form)) p.textContent = "";
  for (const input of $$(".invalid", form)) input.classList.remove("invalid");
  const general = $(".form-error", form);
  if (general) general.textContent = "";
}

// Why a sampled run ended, as its summary says it ("stopped by stderr", "stopped on request").
function stoppedText(stopped) {
  return stopped === "cancelled" ? "stopped on request" : `stopped by ${stopped}`;
}

// The result sections a form's last run drew (its data-results): an error or another game
// leaves them out of date, so they are hidden rather than shown beside the new form.
function hideResults(form) {
  for (const id of (form.dataset.results || "").split(" ").filter(Boolean)) {
    const section = document.getElementById(id);
    if (section) section.hidden = true;
  }
}

function showError(form, error) {
  hideResults(form);
  const field = error.field || "";
  const candidates = field ? [field, field.split(".")[0]] : [];
  for (const name of candidates) {
    const slot = $(`[data-error-for="${CSS.escape(name)}"]`, form);
    if (slot) {
      slot.textContent = error.message;
      const input = $(`[name="${CSS.escape(name)}"]`, form);
      if (input) { input.classList.add("invalid"); input.focus(); }
      return;
    }
  }
  $(".form-error", form).textContent = error.message;
}

// A number typed in a box goes to the server as a number; anything else goes as typed so the
// server's validation names the field. A box in percent (scale 0.01) takes a trailing "%".
function numberOrText(text, scale = 1) {
  const trimmed = scale === 0.01 ? text.trim().replace(/\s*%$/, "") : text.trim();
  if (trimmed === "") return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value * scale : trimmed;
}

// Clears `form`'s errors, shows its .busy note and draws what `ask()` (api or streamed) answers
// with `render`; an error goes next to its field, a run replaced by a newer one goes quietly.
async function submitForm(form, ask, render) {
  clearErrors(form);
  const busy = $(".busy", form);
  busy.hidden = false;
  try {
    render(await ask());
  } catch (error) {
    if (error instanceof ApiError) showError(form, error);
    else if (error.name !== "AbortError") throw error;
  } finally {
    busy.hidden = true;
  }
}

// ---- games and players -----------------------------------------------------------------

const equityForm = () => $("#equity-form");

function playerInputs() {
  return $$("#players input");
}

function renderPlayers(values) {
  const game = state.game;
  const box = $("#players");
  box.replaceChildren();
  values.forEach((value, i) => {
    const name = `players.${i}`;
    const input = el("input", {
      name, value, spellcheck: "false",
      "aria-label": `Player ${i + 1} hand or range`,
      placeholder: game.range_syntax === "holdem" ? (i === 0 ? "AhAs" : "QQ+,AKs or random")
        : game.is_stud ? `up to ${game.hole_cards} known cards, e.g. ${i === 0 ? "As Ks | Qd" : "(3-3-)45"}`
          : `${game.hole_cards} cards or a pattern, e.g. ${i === 0 ? "AsAhKsKh" : "AA**$ds"}`,
    });
    input.value = value;
    const row = el("div", { class: "player" },
      el("span", { class: "num", text: String(i + 1), "aria-hidden": "true" }),
      input,
      game.range_syntax === "holdem"
        ? el("button", { type: "button", class: "icon grid-btn", title: "Pick a range on the grid",
            "aria-label": `Range grid for player ${i + 1}`, text: "▦", onclick: () => openGrid(i) })
        : el("span"),
      el("button", { type: "button", class: "icon remove", text: "×", title: "Remove this player",
        "aria-label": `Remove player ${i + 1}`, disabled: values.length <= 2,
        onclick: () => { const v = playerValues(); v.splice(i, 1); renderPlayers(v); } }),
      el("p", { class: "field-error", "data-error-for": name }));
    box.append(row);
  });
  $("#add-player").disabled = values.length >= game.max_players;
  renderDeck();
}

function playerValues() {
  return playerInputs().map((input) => input.value);
}

// `announce`: the user changed the game, and is told what the new game could not keep (players
// beyond its seats, a board in stud), which went without a word.
function selectGame(name, announce = false) {
  // a run in flight answers for the game it was asked for: it is dropped (it put a hold'em
  // answer under Razz)
  const running = runs.get(equityForm());
  if (running) running.controller.abort();
  state.game = state.games.find((g) => g.name === name) || state.games[0];
  const game = state.game;
  const values = playerValues();
  while (values.length < 2) values.push("");
  renderPlayers(values.slice(0, game.max_players));
  const hint = $("#players-hint");
  hint.textContent = game.range_syntax === "holdem" ? hint.dataset.ranges
    : game.is_stud ? hint.dataset.stud : hint.dataset.patterns;
  $("#board-row").hidden = game.is_stud;
  $("#show-outs").hidden = game.is_stud;
  const board = $("#board").value.trim();
  if (game.is_stud) $("#board").value = "";  // a hidden board would go into the spot's link
  clearErrors(equityForm());
  hideResults(equityForm());
  if (!announce) return;
  const lost = [];
  const dropped = values.slice(game.max_players).filter((v) => v.trim());
  if (dropped.length) {
    lost.push(`${game.title} seats at most ${game.max_players}: ${dropped.join(", ")} left the table`);
  }
  if (game.is_stud && board) lost.push(`${game.title} has no board: ${board} was cleared`);
  if (lost.length) $("#equity-error").textContent = `${lost.join("; ")}.`;
}

async function loadGames() {
  const data = await api("/api/games");
  state.games = data.games;
  const select = $("#game");
  select.replaceChildren(...state.games.map((g) => el("option", { value: g.name, text: g.title })));
  select.value = "holdem";
  state.game = state.games.find((g) => g.name === select.value) || state.games[0];
  select.value = state.game.name;
  renderPlayers(["", ""]);
  selectGame(state.game.name);
}

function methodValue() {
  return $('input[name="method"]:checked', equityForm()).value;
}

function updateMethod() {
  const exact = methodValue() === "exact";
  for (const id of ["trials", "stderr", "seed"]) $(`#${id}`).disabled = exact;  // sampling only
}

function equityBody() {
  const body = {
    game: state.game.name,
    players: playerValues(),
    board: state.game.is_stud ? "" : $("#board").value,
    dead: $("#dead").value,
    method: methodValue(),
  };
  const extra = {
    trials: numberOrText($("#trials").value),
    stderr: numberOrText($("#stderr").value, 0.01),
    time_limit: numberOrText($("#time_limit").value),
    seed: numberOrText($("#seed").value),
  };
  if (body.method === "exact") { delete extra.trials; delete extra.stderr; delete extra.seed; }
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) body[key] = value;
  return body;
}

// While a request runs, the indicator says whether it is computing or queued for a worker.
async function busy(indicator, buttons, work) {
  const box = $(indicator);
  box.textContent = "computing…";
  box.hidden = false;
  for (const b of buttons) $(b).disabled = true;
  const poll = setInterval(async () => {
    try {
      const status = await api("/api/status");
      box.textContent = status.queued > 0 && status.idle === 0
        ? `queued: waiting for a free worker (${status.queued} waiting)…` : "computing…";
    } catch (_) { /* the request's own answer says what went wrong */ }
  }, 1000);
  try { await work(); } finally {
    clearInterval(poll);
    box.hidden = true;
    for (const b of buttons) $(b).disabled = false;
  }
}

// ---- equity ------------------------------------------------------------------------------

function renderEquity(result) {
  const split = result.players.some((p) => p.hi !== undefined);
  const sampled = result.method === "monte-carlo";
  const head = ["#", "Hand / range", "Equity", "Win", "Tie", "Tie eq."];
  if (split) head.push("Hi", "Lo", "Scoop");
  if (sampled) head.push("± stderr");
  head.push("Combos");
  const table = $("#equity-table");
  // left out on a phone-sized screen: the count of combos, and a split game's scoop (its win,
  // by definitions.md: taking the whole pot alone), so that equity ± stderr fits beside win
  const optional = new Set(["#", "Tie eq.", "Scoop", "Combos"]);
  table.replaceChildren(el("thead", {}, el("tr", {}, ...head.map((h, i) =>
    el("th", { class: i === 1 ? "hand" : optional.has(h) ? "opt" : null, scope: "col", text: h })))));
  const body = el("tbody");
  result.players.forEach((p, i) => {
    const fill = el("i");
    fill.style.width = `${(p.equity * 100).toFixed(2)}%`; // CSSOM: the CSP forbids style attributes
    const bar = el("div", { class: "bar" }, fill, el("b", { text: pct(p.equity) }));
    const cells = [
      el("td", { class: "opt", text: String(i + 1) }),
      el("td", { class: "hand", title: p.input, text: p.input }),
      el("td", { class: "equity", "data-player": String(i + 1) }, bar),
      el("td", { text: pct(p.win) }),
      el("td", { text: pct(p.tie) }),
      el("td", { class: "opt", text: pct(p.tie_equity) }),
    ];
    if (split) {
      for (const key of ["hi", "lo"]) cells.push(el("td", { text: pct(p[key] || 0) }));
      cells.push(el("td", { class: "opt", text: pct(p.scoop || 0) }));
    }
    if (sampled) cells.push(el("td", { text: p.stderr === null ? "unknown" : pct(p.stderr, 3) }));
    cells.push(el("td", { class: "opt", text: count(p.combos) }));
    cells.slice(3).forEach((td, k) => { td.dataset.label = head[k + 3]; }); // see "stack"
    body.append(el("tr", {}, ...cells));
  });
  table.append(body);
  // a split game's table has 7 columns on a phone even without the optional ones: there each
  // player's row stacks its numbers under their names (app.css), instead of scrolling sideways
  table.classList.toggle("stack", split);
  const how = sampled
    ? `Monte Carlo: ${counted(result.samples, "deal")} sampled, ${stoppedText(result.stopped)}, seed ${result.seed}`
    : `Exact: ${counted(result.samples, "deal")} enumerated`;
  const where = [result.board && `board ${result.board}`, result.dead && `dead ${result.dead}`,
    result.shared_card && "seventh street: one shared card"].filter(Boolean).join(", ");
  $("#equity-summary").textContent =
    `${how} in ${result.seconds.toFixed(3)} s${where ? ` · ${where}` : ""}.`;
  $("#results").hidden = false;
}

// Runs the spot on the form. `push`: a run asked for here (not restored from the URL) becomes a
// new history entry, so back and forward move between the spots run in this tab.
async function runSpot(push) {
  const form = equityForm();
  clearErrors(form);
  const spot = spotText(spotParams());
  if (location.hash.slice(1) !== spot) {  // a link the form read otherwise (a stud board) is
    if (push) history.pushState(null, "", `#${spot}`);  // shown as it runs
    else history.replaceState(null, "", `#${spot}`);
  }
  await runOnCards("results", "equity", equityBody(), (result) => {
    renderEquity(result);
    rememberSpot(spot);
  });
}

// Runs `task` on the equity form's cards and draws its answer with `render` into section `id`
// (Simulate's and Outs's shared steps): the share link and an answer for other cards are hidden
// first, and the section remembers the cards it answered for (see hideOtherSpots).
async function runOnCards(id, task, body, render) {
  const form = equityForm();
  showShareLink(false);
  hideOtherSpots();
  const key = dealKey();  // the cards asked about, whatever is typed while it runs
  await busy("#equity-busy", ["#simulate", "#show-outs"], async () => {
    try {
      render(await streamed(form, task, body));
      document.getElementById(id).dataset.spot = key;
    } catch (error) {
      if (error.name !== "AbortError") showError(form, error);
    }
  });
}

async function simulate(event) {
  event.preventDefault();
  await runSpot(true);
}

// ---- spots in the URL --------------------------------------------------------------------
// A spot is every input of the equity form as the fragment's query string:
// #game=holdem&p=AhAs&p=KdKc&board=Qh7c2d&dead=&method=monte-carlo&trials=…&stderr=…&time_limit=…&seed=…
// (the boxes' texts as typed; the server checks them when the spot runs).

const SPOT_BOXES = ["board", "dead", "trials", "stderr", "time_limit", "seed"];
const RECENT_KEY = "pokerlab.recentSpots";
const RECENT_MAX = 10;

function spotParams() {
  const params = new URLSearchParams();
  params.set("game", state.game.name);
  for (const value of playerValues()) params.append("p", value);
  for (const id of SPOT_BOXES) {
    const value = $(`#${id}`).value.trim();
    if (value) params.set(id, value);
  }
  const method = methodValue();
  if (method !== "auto") params.set("method", method);
  return params;
}

// A spot as a link's fragment: every value percent-encoded (a space as %20, a '+' as %2B), so
// a link holds no bare '+'. A link's bare '+' is read as a plus (spotFromText): URLSearchParams
// reads it as a space, and a hand-typed '#p=QQ%2B' written 'p=QQ+' ran the range QQ, not QQ+.
function spotText(params) {
  return [...params].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
}

function spotFromText(text) {
  const params = new URLSearchParams();
  for (const part of text.split("&")) {
    if (!part) continue;
    const at = part.indexOf("=");
    params.append(decodedPart(at < 0 ? part : part.slice(0, at)), decodedPart(at < 0 ? "" : part.slice(at + 1)));
  }
  return params;
}

function decodedPart(text) {
  try { return decodeURIComponent(text); } catch (_) { return text; }  // a stray '%': as typed
}

function spotUrl(spot) {
  return `${location.origin}${location.pathname}#${spot}`;
}

// Fills the form from a spot; true when it names at least one player's hand (worth running)
// and the form could take it as it is. What the form had to change (an unknown game or
// method, more players than the game seats) is said in the form's message, and not run.
function applySpot(params) {
  const changed = [];
  const name = params.get("game");
  const key = (name || "").trim().toLowerCase();  // a game's name or alias, as the CLI takes
  let game = state.games.find((g) => g.name === key || (g.aliases || []).includes(key));
  if (!game) {
    game = state.games.find((g) => g.name === "holdem");
    if (name !== null) changed.push(`the link's game '${name}' is not one pokerlab plays: showing ${game.title}`);
  }
  $("#game").value = game.name;
  selectGame(game.name);
  const given = params.getAll("p");
  const players = given.slice(0, game.max_players);
  if (given.length > players.length) {
    changed.push(`the link has ${given.length} players; ${game.title} seats at most ${game.max_players}: showing the first ${players.length}`);
  }
  while (players.length < 2) players.push("");
  renderPlayers(players);
  for (const id of SPOT_BOXES) $(`#${id}`).value = params.get(id) || "";
  const board = (params.get("board") || "").trim();
  if (game.is_stud && board) {  // dropped as a game switch drops it, and said as it says it
    $("#board").value = "";
    changed.push(`${game.title} has no board: the link's board ${board} was dropped`);
  }
  const method = params.get("method") || "auto";
  const asked = method.trim().toLowerCase();
  const value = asked === "mc" ? "monte-carlo" : asked;  // "mc": as the API and the CLI take it
  let radio = $$('input[name="method"]').find((r) => r.value === value);
  if (!radio) {
    radio = $('input[name="method"][value="auto"]');
    changed.push(`the link's method '${method}' is not one of auto, exact, monte-carlo: showing auto`);
  }
  radio.checked = true;
  updateMethod();
  clearErrors(equityForm());
  if (changed.length) {
    $("#equity-error").textContent = `${changed.join("; ")}. Check the spot, then Simulate.`;
    return false;
  }
  return players.some((p) => p.trim() !== "");
}

function spotFromLocation() {
  return spotFromText(location.hash.slice(1));
}

async function restoreFromLocation() {
  const runnable = applySpot(spotFromLocation());
  if (runnable) await runSpot(false);
  else $("#results").hidden = true;
}

function showShareLink(visible, status = "") {
  $("#share").hidden = !visible;
  $("#share-link").value = visible ? spotUrl(spotText(spotParams())) : "";
  $("#share-status").textContent = status;
}

async function copyLink() {
  showShareLink(true);
  const link = $("#share-link");
  let copied = false;
  try {
    if (navigator.clipboard) { await navigator.clipboard.writeText(link.value); copied = true; }
  } catch (_) { copied = false; }
  link.focus();
  link.select();
  $("#share-status").textContent = copied ? "Link copied." : "Select the link and copy it.";
}

function readRecent() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    // a spot kept by an earlier page was URLSearchParams' text (a space as a bare '+'):
    // rewritten as spotText writes it (the same text for a spot it wrote, with no bare '+')
    return Array.isArray(list)
      ? list.filter((s) => typeof s === "string").map((s) => spotText(new URLSearchParams(s)))
      : [];
  } catch (_) {
    return []; // storage off (private mode) or not ours: no list
  }
}

function writeRecent(list) {
  try { localStorage.setItem(RECENT_KEY, JSON.stringify(list)); } catch (_) { /* storage off */ }
  renderRecent();
}

function rememberSpot(spot) {
  writeRecent([spot, ...readRecent().filter((s) => s !== spot)].slice(0, RECENT_MAX));
}

function spotLabel(spot) {
  const params = spotFromText(spot);
  const players = params.getAll("p").map((p) => p.trim() || "?").join(" vs ");
  const board = params.get("board");
  const game = params.get("game") || "holdem";
  return `${game}: ${players}${board ? ` on ${board}` : ""}`;
}

function renderRecent() {
  const list = readRecent();
  $("#recent").hidden = list.length === 0;
  $("#recent-list").replaceChildren(...list.map((spot) => el("li", {},
    el("a", { href: `#${spot}`, text: spotLabel(spot), "data-spot": spot }))));
}

function setupSpots() {
  $("#copy-link").addEventListener("click", copyLink);
  // a link shown for the spot before an edit is not this spot's any more
  equityForm().addEventListener("input", () => { if (!$("#share").hidden) showShareLink(false); });
  $("#recent-list").addEventListener("click", (event) => {
    const link = event.target.closest("a[data-spot]");
    if (!link) return;
    event.preventDefault();
    if (location.hash.slice(1) !== link.dataset.spot) history.pushState(null, "", `#${link.dataset.spot}`);
    restoreFromLocation();
  });
  $("#recent-clear").addEventListener("click", () => writeRecent([]));
  window.addEventListener("popstate", () => { restoreFromLocation(); });
  renderRecent();
}

// ---- outs --------------------------------------------------------------------------------

// The kinds of a next card: "depends" wins some deals and not others (against some of a range's
// holdings, or on some rivers).
const OUT_KINDS = ["win", "tie", "lose", "depends"];

// On a flop, a turn card is "win", "tie" or "lose" for a player only when every river under it
// is (counted from the report's by_turn lists), else "depends".
function turnKind(turn, i) {
  const p = turn.players[i];
  const kinds = OUT_KINDS.filter((kind) => p[kind].length > 0);
  return kinds.length === 1 ? kinds[0] : "depends";
}

function riverCounts(turn, i) {
  const p = turn.players[i];
  const mixed = p.depends.length ? ` · depends ${p.depends.length}` : "";
  return `win ${p.win.length} · chop ${p.tie.length} · lose ${p.lose.length}${mixed}`;
}

// One expandable row per turn card: the rivers' win / chop / lose counts of every player, and
// when opened, the river cards themselves.
function turnRows(report) {
  const box = el("div", { class: "turn-rows" },
    el("h3", { text: "Rivers under each turn card (open a row for its river cards)" }));
  for (const [card, turn] of Object.entries(report.by_turn)) {
    const summary = el("summary", {}, el("b", { text: card }),
      ...turn.players.map((_, i) => el("span", { class: `turn-player ${turnKind(turn, i)}`,
        "data-player": String(i + 1), text: `${i + 1}: ${riverCounts(turn, i)} (${turnKind(turn, i)})` })));
    const lists = turn.players.map((p, i) => el("p", { class: "river-list", "data-player": String(i + 1) },
      `Player ${i + 1} rivers — `,
      ...OUT_KINDS.map((kind) => el("span", { class: `rivers ${kind}`, "data-kind": kind,
        text: `${kind === "tie" ? "chop" : kind} ${p[kind].length}: ${p[kind].join(" ")} ` }))));
    box.append(el("details", { class: "turn-row", "data-turn": card }, summary, ...lists));
  }
  return box;
}

// Opens a turn card's row of rivers; by keyboard, focus moves to it (its summary).
function openTurnRow(card, focus) {
  const row = $(`.turn-row[data-turn="${card}"]`);
  row.open = true;
  row.scrollIntoView({ block: "nearest" });
  if (focus) $("summary", row).focus();
}

// A grid of cells by keyboard (a flop's turn cards, the range grid): one Tab stop, the arrow
// keys move to the next cell that way that `usable` takes (past those it does not: a card
// already out, a class not in the deck), Home / End to the first / last usable cell.
function roveGrid(event, all, width, usable) {
  const cell = event.target;
  const here = all.indexOf(cell);
  if (here < 0) return false;
  const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: width, ArrowUp: -width }[event.key];
  let next = null;
  if (event.key === "Home") next = all.find(usable);
  else if (event.key === "End") next = [...all].reverse().find(usable);
  else if (step) {
    for (let i = here + step; i >= 0 && i < all.length; i += Math.sign(step)) {
      if (usable(all[i])) { next = all[i]; break; }
    }
  }
  if (!next) return false;
  event.preventDefault();
  next.focus();  // and becomes the Tab stop (oneTabStop)
  return true;
}

// The cells of `container` (`cells()`) out of the Tab order but its first usable one, and
// then the last one focused, however it was (arrows, a click, a script).
function oneTabStop(container, cells, usable) {
  const all = cells();
  const first = all.find(usable);
  for (const cell of all) if (usable(cell)) cell.tabIndex = cell === first ? 0 : -1;
  if (container.dataset.tabStop) return;  // listening already (the range grid is redrawn)
  container.dataset.tabStop = "one";
  container.addEventListener("focusin", (event) => {
    const now = cells();
    if (!now.includes(event.target)) return;
    for (const cell of now) if (cell !== event.target && cell.tabIndex === 0) cell.tabIndex = -1;
    event.target.tabIndex = 0;
  });
}

// A flop's grid of turn cells: Enter or Space opens the turn card's row (see roveGrid).
function setupTurnGrid(grid) {
  const all = $$(".out", grid);
  const usable = (cell) => cell.getAttribute("role") === "button";
  if (!all.some(usable)) return;
  oneTabStop(grid, () => all, usable);
  grid.addEventListener("keydown", (event) => {
    const cell = event.target.closest('[role="button"]');
    if (!cell) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      openTurnRow(cell.dataset.card, true);
      return;
    }
    roveGrid(event, all, 13, usable);
  });
}

function renderOuts(report) {
  const lists = report.players;
  const flop = Boolean(report.by_turn);
  const ranks = "AKQJT98765432";
  const suits = "shdc";
  const box = $("#outs-players");
  box.replaceChildren();
  lists.forEach((p, i) => {
    const kindOf = new Map();
    const titleOf = new Map();
    if (flop) {
      for (const [card, turn] of Object.entries(report.by_turn)) {
        kindOf.set(card, turnKind(turn, i));
        titleOf.set(card, `${card}: ${turnKind(turn, i)} — rivers ${riverCounts(turn, i)}, share ${pct(p.equity[card])}`);
      }
    } else {
      for (const kind of OUT_KINDS) for (const c of p[kind]) kindOf.set(c, kind);
    }
    const grid = el("div", { class: "outs-grid", "data-player": String(i + 1) });
    for (const s of suits) {
      for (const r of ranks) {
        const card = r + s;
        const kind = kindOf.get(card) || "known";
        const share = p.equity[card];
        const title = titleOf.get(card) ||
          (share === undefined ? `${card}: already out` : `${card}: ${kind}, share ${pct(share)}`);
        // a turn cell opens its row of rivers (by click, or Enter / Space: a button to a screen
        // reader, one Tab stop per grid moved by the arrow keys); every cell reads as its title
        const opens = flop && kind !== "known";
        const cell = el("span", { class: `out ${kind}`, "data-card": card, "data-kind": kind, text: card,
          title, role: opens ? "button" : "img", "aria-label": title, tabindex: opens ? "-1" : null });
        if (opens) cell.addEventListener("click", () => openTurnRow(card, false));
        grid.append(cell);
      }
    }
    if (flop) setupTurnGrid(grid);
    const tally = (kind) => [...kindOf.values()].filter((k) => k === kind).length;
    const counts = flop
      ? `turns: wins on every river ${tally("win")} · ties on every river ${tally("tie")} · ` +
        `loses on every river ${tally("lose")} · depends on the river ${tally("depends")}`
      : `wins ${p.win.length} · ties ${p.tie.length} · loses ${p.lose.length}` +
        (p.depends.length ? ` · depends on the others' hands ${p.depends.length}` : "");
    box.append(el("div", { class: "outs-player" },
      el("h3", {}, `Player ${i + 1} `, el("code", { text: p.input }),
        el("span", { class: "counts", text: counts })),
      grid));
  });
  if (flop) box.append(turnRows(report));
  const street = report.runouts ? "turn" : "river";
  $("#outs-title").textContent = `board ${report.board}: every ${street} card`;
  // the legend's "depends" is the counts' own: on the river, a range's card that wins against
  // some of the others' holdings and not all
  $("#outs-depends").textContent = flop
    ? "depends on the river (a turn card is win, tie or lose only when every river is; click " +
      "it for its rivers)"
    : "depends on the others' hands (a card that wins against some of their holdings, not all)";
  let summary = "";
  if (report.runouts) {
    summary = `Over all ${count(report.runouts.total)} turn + river runouts: ` +
      report.runouts.players.map((p, i) =>
        `player ${i + 1} wins ${count(p.win)}, ties ${count(p.tie)}` +
        (p.depends ? `, depends on the others' hands ${count(p.depends)}` : "") +
        `, equity ${pct(p.equity)}`).join("; ") + ".";
  }
  $("#outs-summary").textContent = summary;
  $("#outs").hidden = false;
}

// The cards of the spot on the form (game, players, board, dead): what the equity and the
// outs sections each answered, so that a run on other cards hides the other's answer.
function dealKey() {
  return JSON.stringify([state.game.name, playerValues(), $("#board").value.trim(),
    $("#dead").value.trim()]);
}

function hideOtherSpots() {
  const key = dealKey();
  for (const id of ["results", "outs"]) {
    const section = document.getElementById(id);
    if (section.dataset.spot !== key) section.hidden = true;
  }
}

async function showOuts() {
  const form = equityForm();
  clearErrors(form);
  const body = { game: state.game.name, players: playerValues(), board: $("#board").value,
    dead: $("#dead").value };
  const limit = numberOrText($("#time_limit").value);
  if (limit !== undefined) body.time_limit = limit;
  await runOnCards("outs", "outs", body, renderOuts);
}

// ---- the board picker ---------------------------------------------------------------------
// A 52-card deck that fills the board and dead-card boxes. It only reads and writes card names:
// the boxes stay editable by keyboard and the server checks whatever they hold.

const RANKS = "AKQJT98765432";
const SUITS = "shdc";
// a ten is T or 10 (docs: definitions.md), and the deck names it T
const CARD = /(?:10|[2-9tjqka])[shdc]/gi;
const ONLY_CARDS = /^[\s|]*((?:10|[2-9tjqka])[shdc][\s|]*)+$/i;

const cardName = (text) =>
  (text.length === 3 ? "T" : text[0].toUpperCase()) + text[text.length - 1].toLowerCase();
const cardsIn = (text) => (text.match(CARD) || []).map(cardName);

function pickTarget() {
  const target = $('input[name="pick-target"]:checked').value;
  return state.game && state.game.is_stud ? "dead" : target;
}

// Cards in use: the board, the dead cards, and players whose box holds nothing but cards.
function cardsInUse() {
  const used = new Map();
  for (const id of ["board", "dead"]) {
    if (id === "board" && state.game && state.game.is_stud) continue;
    for (const c of cardsIn($(`#${id}`).value)) used.set(c, id);
  }
  for (const value of playerValues()) {
    if (ONLY_CARDS.test(value)) for (const c of cardsIn(value)) used.set(c, "player");
  }
  return used;
}

function renderDeck() {
  if ($("#deck-box").hidden) return;
  const stud = state.game && state.game.is_stud;
  $("#pick-board-label").hidden = stud;
  if (stud) $('input[name="pick-target"][value="dead"]').checked = true;
  const target = pickTarget();
  const used = cardsInUse();
  for (const button of $$("#deck button")) {
    const where = used.get(button.dataset.card);
    const picked = where === target;
    button.classList.toggle("picked", picked);
    button.disabled = where !== undefined && !picked;
    button.setAttribute("aria-pressed", picked ? "true" : "false");
    button.title = where === undefined ? `add ${button.dataset.card}`
      : picked ? `take ${button.dataset.card} out` : `${button.dataset.card}: in the ${where === "player" ? "players' hands" : where}`;
  }
}

function pickCard(card) {
  const box = $(`#${pickTarget()}`);
  const cards = cardsIn(box.value);
  box.value = (cards.includes(card) ? cards.filter((c) => c !== card) : [...cards, card]).join(" ");
  box.classList.remove("invalid");
  renderDeck();
}

function setupPicker() {
  const deck = $("#deck");
  for (const s of SUITS) {
    for (const r of RANKS) {
      const card = r + s;
      deck.append(el("button", { type: "button", class: `deck-card suit-${s}`, "data-card": card,
        text: card, "aria-pressed": "false" }));
    }
  }
  deck.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-card]");
    if (button && !button.disabled) pickCard(button.dataset.card);
  });
  $("#pick-cards").addEventListener("click", () => {
    const box = $("#deck-box");
    box.hidden = !box.hidden;
    $("#pick-cards").setAttribute("aria-expanded", box.hidden ? "false" : "true");
    renderDeck();
  });
  for (const radio of $$('input[name="pick-target"]')) radio.addEventListener("change", renderDeck);
  equityForm().addEventListener("input", renderDeck);
}

// ---- the 13x13 range grid ----------------------------------------------------------------
// The editor holds the range as combos and their weights (the API's list), so weights and single
// combos survive every grid edit. The grid paints whole classes at a weight or, in "Pick suits",
// single combos; the text box and the grid follow each other; the API counts and canonicalises.

const grid = { player: null, combos: new Map(), request: 0, text: "", painting: null, paintingWeight: 1,
  suitClass: null, typing: null, pending: Promise.resolve() };

// A combo's class name in the grid's spelling: "AsKc" -> "AKo", "Ts9s" -> "T9s", "QhQd" -> "QQ"
// (the API lists combos high card first).
function classOf(combo) {
  const [r1, s1, r2, s2] = combo;
  return r1 === r2 ? r1 + r2 : `${r1}${r2}${s1 === s2 ? "s" : "o"}`;
}

// The grid reads ranges in the game's deck: short deck's classes below the six hold no combo
// (their cells are disabled) and its top x% has an ordering of its own.
async function gridNames() {
  if (state.gridGame !== state.game.name) {
    const all = await api("/api/range", { range: "random", list: true, game: state.game.name });
    const names = all.grid.map((row) => row.map((cell) => cell.class));
    const byClass = new Map(names.flat().map((name) => [name, []]));
    for (const item of all.list) byClass.get(classOf(item.combo)).push(item.combo);
    state.classCombos = byClass;
    state.gridNames = names;
    state.gridGame = state.game.name;
  }
  return state.gridNames;
}

const withWeight = (text, weight) => (weight === 1 ? text : `${text}:${weight}`);

// The editor's combos as range text: a whole class at one weight by its name, else its combos.
function gridRangeText() {
  const parts = [];
  for (const name of state.gridNames.flat()) {
    const all = state.classCombos.get(name);
    const present = all.filter((c) => grid.combos.has(c));
    if (present.length === 0) continue;
    const weights = new Set(present.map((c) => grid.combos.get(c)));
    if (present.length === all.length && weights.size === 1) parts.push(withWeight(name, [...weights][0]));
    else for (const c of present) parts.push(withWeight(c, grid.combos.get(c)));
  }
  return parts.join(",");
}

// The weight the grid paints at, or null when the box holds no weight a range takes (more than
// 0, at most 1): the box is marked and said wrong, and nothing is painted (5 and 0 painted 1).
function paintWeight() {
  const box = $("#paint-weight");
  const value = Number(box.value);
  const valid = box.value.trim() !== "" && Number.isFinite(value) && value > 0 && value <= 1;
  box.classList.toggle("invalid", !valid);
  if (!valid) {
    const got = box.value.trim() === "" ? "nothing" : box.value.trim();
    $("#grid-error").textContent = `weight: a number more than 0 and at most 1, not ${got}`;
  }
  return valid ? value : null;
}

function renderCell(button) {
  const all = state.classCombos.get(button.dataset.class);
  if (all.length === 0) {  // not in this game's deck
    button.disabled = true;
    button.title = `${button.dataset.class}: not in ${state.game.title}'s deck`;
    return;
  }
  const weights = all.filter((c) => grid.combos.has(c)).map((c) => grid.combos.get(c));
  const full = weights.length === all.length;
  const weighted = weights.some((w) => w < 1);
  button.classList.toggle("on", full && !weighted);
  button.classList.toggle("partial", weights.length > 0 && !full);
  button.classList.toggle("weighted", full && weighted);
  button.dataset.combos = String(weights.length);
  button.dataset.weight = weights.length ? String(Math.max(...weights)) : "0";
  button.setAttribute("aria-pressed", weights.length ? "true" : "false");
  const mean = weights.length ? weights.reduce((a, b) => a + b, 0) / weights.length : 0;
  button.title = `${button.dataset.class}: ${weights.length} of ${all.length} combos` +
    (weighted ? `, weight ${Number(mean.toFixed(3))}` : "");
}

function renderGrid() {
  for (const button of $$("#range-grid button[data-class]")) renderCell(button);
  if (grid.suitClass) renderSuits();
}

// The range's counts; `null` for no range (zeros), `undefined` for a text that does not parse.
function showCounts(data) {
  if (data === undefined) {
    for (const id of ["#grid-combos", "#grid-weighted", "#grid-percent"]) $(id).textContent = "–";
    return;
  }
  $("#grid-combos").textContent = count(data ? data.combos : 0);
  $("#grid-weighted").textContent = data ? String(Number(data.weighted_combos.toFixed(2))) : "0";
  $("#grid-percent").textContent = `${(data ? data.percent : 0).toFixed(2)}%`;
}

// Reads `text` through the API into the editor. `fromBox`: typed in the text box (left as typed).
async function loadRange(text, fromBox = false) {
  const ticket = ++grid.request;
  $("#grid-error").textContent = "";
  $("#grid-range").classList.remove("invalid");
  if (text.trim() === "") {
    grid.combos = new Map();
    grid.text = "";
    showCounts(null);
    if (!fromBox) $("#grid-range").value = "";
    renderGrid();
    return true;
  }
  try {
    const data = await api("/api/range", { range: text, list: true, game: state.gridGame });
    if (ticket !== grid.request) return true;
    grid.combos = new Map(data.list.map((item) => [item.combo, item.weight]));
    grid.text = data.canonical;
    showCounts(data);
    if (!fromBox) $("#grid-range").value = data.canonical;
    renderGrid();
    return true;
  } catch (error) {
    if (ticket !== grid.request) return true;
    $("#grid-error").textContent = error.message;
    $("#grid-range").classList.add("invalid");
    showCounts(undefined); // the counts were the last valid range's, not the text's
    return false;
  }
}

// After a grid edit: the combos go to the API as text; its canonical form fills the box.
function gridEdited() {
  renderGrid();
  grid.pending = loadRange(gridRangeText());
  return grid.pending;
}

// Paints (or, `on` false, clears) a whole class at `weight` (paintWeight's, read once a stroke).
function paintClass(button, on, weight) {
  for (const c of state.classCombos.get(button.dataset.class)) {
    if (on) grid.combos.set(c, weight); else grid.combos.delete(c);
  }
  renderCell(button);
}

// A click paints the class at the weight, or clears it when it already holds exactly that.
function paintsOn(name, weight) {
  return !state.classCombos.get(name).every((c) => grid.combos.get(c) === weight);
}

function gridCells() {
  return $$("#range-grid button[data-class]");
}

const usableCell = (button) => !button.disabled;

function gridMode() {
  return $('input[name="grid-mode"]:checked').value;
}

function renderSuits() {
  const name = grid.suitClass;
  $("#suit-class").textContent = name;
  $("#suit-combos").replaceChildren(...state.classCombos.get(name).map((combo) => {
    const weight = grid.combos.get(combo);
    return el("button", { type: "button", class: weight === undefined ? "" : "on", "data-combo": combo,
      "aria-pressed": weight === undefined ? "false" : "true",
      text: weight === undefined || weight === 1 ? combo : `${combo} ${weight}` });
  }));
  $("#suit-picker").hidden = false;
}

async function openGrid(player) {
  const form = equityForm();
  clearErrors(form);
  const names = await gridNames();
  grid.player = player;
  grid.suitClass = null;
  $("#suit-picker").hidden = true;
  const box = $("#range-grid");
  box.replaceChildren();
  names.forEach((row, r) => {
    const line = el("div", { role: "row", class: "grid-row" });  // laid out by the grid: contents
    row.forEach((name, c) => {
      const cell = el("button", { type: "button", "data-class": name, text: name, role: "gridcell",
        class: r === c ? "pair" : null, "aria-pressed": "false" });
      // a class out of the game's deck is disabled before the dialog shows, not once it loads
      if (state.classCombos.get(name).length === 0) renderCell(cell);
      line.append(cell);
    });
    box.append(line);
  });
  oneTabStop(box, gridCells, usableCell);  // 169 Tab stops were one each
  $("#grid-player").textContent = String(player + 1);
  $("#top-percent").value = "0";
  $("#top-value").textContent = "–";
  $("#top-ordering").disabled = state.game.lowest_rank > 0; // short deck: its own ordering
  showDialog("#grid-dialog", "#grid-range");
  const text = playerValues()[player].trim();
  if (!(await loadRange(text))) $("#grid-range").value = text; // shown with its error, kept
}

// A dialog is modal: the rest of the page is inert (no Tab or click reaches the form behind it,
// where a keyboard user removed the player the grid was for), focus moves into it, and when
// the dialogs close it goes back to what opened them.
const dialogs = { opener: null };

function showDialog(selector, focusSelector) {
  if (!document.querySelector(".dialog:not([hidden])")) dialogs.opener = document.activeElement;
  const dialog = $(selector);
  for (const part of document.body.children) part.inert = part !== dialog;
  dialog.hidden = false;
  $(focusSelector).focus();
}

function hideDialogs() {
  if (!document.querySelector(".dialog:not([hidden])")) return;
  for (const dialog of $$(".dialog")) dialog.hidden = true;
  for (const part of document.body.children) part.inert = false;
  if (dialogs.opener && dialogs.opener.isConnected) dialogs.opener.focus();
  dialogs.opener = null;
}

function setupGrid() {
  const box = $("#range-grid");
  box.addEventListener("pointerdown", (event) => {
    const button = event.target.closest("button[data-class]");
    if (!button) return;
    event.preventDefault();
    if (gridMode() === "suits") {
      grid.suitClass = button.dataset.class;
      renderSuits();
      return;
    }
    const weight = paintWeight();
    if (weight === null) return;
    grid.painting = paintsOn(button.dataset.class, weight);
    grid.paintingWeight = weight;
    paintClass(button, grid.painting, weight);
    if (box.releasePointerCapture && event.pointerId !== undefined) {
      try { box.releasePointerCapture(event.pointerId); } catch (_) { /* not captured */ }
    }
  });
  box.addEventListener("pointerover", (event) => {
    if (grid.painting === null) return;
    const button = event.target.closest("button[data-class]");
    if (button) paintClass(button, grid.painting, grid.paintingWeight);
  });
  const stop = () => {
    if (grid.painting === null) return;
    grid.painting = null;
    gridEdited();
  };
  document.addEventListener("pointerup", stop);
  document.addEventListener("pointercancel", stop);
  box.addEventListener("keydown", (event) => {
    const button = event.target.closest("button[data-class]");
    if (button && roveGrid(event, gridCells(), 13, usableCell)) return;
    if (button && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      if (gridMode() === "suits") { grid.suitClass = button.dataset.class; renderSuits(); return; }
      const weight = paintWeight();
      if (weight === null) return;
      paintClass(button, paintsOn(button.dataset.class, weight), weight);
      gridEdited();
    }
  });
  $("#suit-combos").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-combo]");
    if (!button) return;
    const combo = button.dataset.combo;
    if (grid.combos.has(combo)) grid.combos.delete(combo);
    else {
      const weight = paintWeight();
      if (weight === null) return;
      grid.combos.set(combo, weight);
    }
    gridEdited();
  });
  const topPercent = () => {
    // the best x% of hands in the chosen ordering (vs3, the library's default, is written bare)
    const value = $("#top-percent").value;
    const ordering = $("#top-ordering").value;
    $("#top-value").textContent = `${value}%`;
    const bare = ordering === "vs3" || $("#top-ordering").disabled;
    const item = bare ? `${value}%` : `${value}%@${ordering}`;
    grid.pending = loadRange(Number(value) > 0 ? item : "");
  };
  $("#top-percent").addEventListener("input", topPercent);
  $("#paint-weight").addEventListener("input", () => {
    if (!$("#paint-weight").classList.contains("invalid")) return;
    if (paintWeight() !== null) $("#grid-error").textContent = "";  // put right: the mark goes
  });
  $("#top-ordering").addEventListener("change", () => {
    if (Number($("#top-percent").value) > 0) topPercent();
  });
  $("#grid-range").addEventListener("input", () => {
    clearTimeout(grid.typing);
    grid.typing = setTimeout(() => { grid.pending = loadRange($("#grid-range").value, true); }, 250);
  });
  $("#grid-clear").addEventListener("click", () => {
    grid.combos = new Map();
    gridEdited();
  });
  const close = hideDialogs;
  $("#grid-cancel").addEventListener("click", close);
  $("#grid-dialog").addEventListener("click", (event) => { if (event.target.id === "grid-dialog") close(); });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
  $("#grid-apply").addEventListener("click", async () => {
    clearTimeout(grid.typing);
    const box = $("#grid-range");
    // what is in the box is the range: typed and not yet read, it is read now
    const same = box.value.trim() === grid.text;
    const ok = same ? true : await loadRange(box.value, true);
    await grid.pending;
    // back to the range last read: an error shown for text typed since (its re-read cancelled
    // above) no longer applies, and it kept "Use range" from doing anything
    if (same && box.value.trim() === grid.text) $("#grid-error").textContent = "";
    if (!ok || $("#grid-error").textContent) return;
    const input = playerInputs()[grid.player];
    if (input) input.value = grid.text;  // (the page behind is inert: the player is there)
    close();
  });
  $("#syntax-open").addEventListener("click", () => {
    const kind = state.game.range_syntax === "holdem" ? "holdem" : state.game.is_stud ? "stud" : "patterns";
    for (const part of $$("[data-help]")) part.hidden = part.dataset.help !== kind;
    showDialog("#syntax-help", "#syntax-close");
  });
  $("#syntax-close").addEventListener("click", close);
  $("#syntax-help").addEventListener("click", (event) => { if (event.target.id === "syntax-help") close(); });
}

// ---- five-card draw ------------------------------------------------------------------------

function renderDraw(advice) {
  const withEquity = advice.method !== null;
  const sampled = advice.method === "monte-carlo";  // equities with their stderr, as the CLI's
  const head = ["#", "Keep", "Discard", "Draws"];
  if (withEquity) head.push("Equity", ...(sampled ? ["± stderr"] : []), "Win", "Tie");
  head.push("Score");
  // a cell's class by its column: the cards, or one a phone-sized screen leaves out
  const optional = new Set(["#", "Draws", "Win", "Tie"]);
  const kind = (j) => (j === 1 || j === 2 ? "hand" : optional.has(head[j]) ? "opt" : null);
  const table = $("#draw-table");
  table.replaceChildren(el("thead", {}, el("tr", {}, ...head.map((h, j) =>
    el("th", { scope: "col", class: kind(j), text: h })))));
  const body = el("tbody");
  advice.choices.slice(0, 8).forEach((c, i) => {
    const cells = [String(i + 1), c.keep.join(" ") || "—", c.discard.join(" ") || "—", count(c.draws)];
    if (withEquity) {
      cells.push(pct(c.equity));
      if (sampled) cells.push(c.stderr === null ? "unknown" : pct(c.stderr, 3));
      cells.push(pct(c.win), pct(c.tie));
    }
    cells.push(c.score.toFixed(3));
    body.append(el("tr", {}, ...cells.map((text, j) => el("td", { class: kind(j), text }))));
  });
  table.append(body);
  const best = advice.choices[0];
  const action = best.discard.length ? `draw ${best.discard.length}` : "stand pat";
  let summary = `Best: keep ${best.keep.join(" ") || "nothing"}, ${action}.`;
  if (withEquity) {
    summary += ` Equities ${advice.method === "exact" ? "exact" : `by Monte Carlo (${counted(advice.samples, "deal")}, seed ${advice.seed})`}`;
  }
  summary += ` · ${advice.seconds.toFixed(3)} s. Score: expected percentile of the final hand.`;
  $("#draw-summary").textContent = summary;
  $("#draw-results").hidden = false;
}

async function advise(event) {
  event.preventDefault();
  const form = $("#draw-form");
  clearErrors(form);
  const body = {
    hand: $("#draw-hand").value,
    game: $("#draw-game").value,
    dead: $("#draw-dead").value,
    vs: $("#draw-vs").value.split("\n").map((s) => s.trim()).filter(Boolean),
  };
  await busy("#draw-busy", ["#advise"], async () => {
    try {
      renderDraw(await api("/api/draw", body));
    } catch (error) {
      showError(form, error);
    }
  });
}

// ---- wiring ------------------------------------------------------------------------------

// The tab bar as the ARIA tabs pattern: one tab in the Tab order (the selected one), the arrow
// keys, Home and End move between tabs and select the one they reach.
function selectTab(tab) {
  for (const other of $$(".tabs button")) {
    const on = other === tab;
    other.setAttribute("aria-selected", on ? "true" : "false");
    other.tabIndex = on ? 0 : -1;
    $(`#panel-${other.dataset.tab}`).hidden = !on;
  }
}

function setupTabs() {
  const tabs = $$(".tabs button");
  for (const [index, tab] of tabs.entries()) {
    tab.setAttribute("aria-controls", `panel-${tab.dataset.tab}`);
    tab.tabIndex = tab.getAttribute("aria-selected") === "true" ? 0 : -1;
    tab.addEventListener("click", () => selectTab(tab));
    tab.addEventListener("keydown", (event) => {
      const steps = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
      if (!(event.key in steps)) return;
      event.preventDefault();
      const next = tabs[(steps[event.key] + tabs.length) % tabs.length];
      selectTab(next);
      next.focus();
    });
  }
}

function start() {
  setupTabs();
  setupGrid();
  setupPicker();
  $("#equity-form").addEventListener("submit", simulate);
  $("#draw-form").addEventListener("submit", advise);
  $("#show-outs").addEventListener("click", showOuts);
  setupStops();
  $("#game").addEventListener("change", (event) => selectGame(event.target.value, true));
  $("#add-player").addEventListener("click", () => renderPlayers([...playerValues(), ""]));
  for (const radio of $$('input[name="method"]')) radio.addEventListener("change", updateMethod);
  updateMethod();
  loadGames().then(() => {
    setupSpots();
    document.body.dataset.ready = "true";
    if (location.hash.length > 1) restoreFromLocation();
  }).catch((error) => {
    $("#equity-error").textContent = `Could not load the games: ${error.message}`;
  });
}

document.addEventListener("DOMContentLoaded", start);
