// The draw tab's game against a bot. The server keeps nothing: the page holds the session's seed
// and the deal's number, and POST /api/draw/deal and /api/draw/showdown re-derive the deal from
// them (so nothing sent can change the cards). The score lives in this page only. No poker
// logic here; it uses the helpers of app.js ($, el, api, ApiError, busy).
"use strict";

(() => {
  const play = {
    seed: crypto.getRandomValues(new Uint32Array(1))[0],
    hand: 0,
    cards: [],
    thrown: new Set(),
    settings: null,
    done: true,
    score: { wins: 0, ties: 0, losses: 0 },
    scoreFor: null,  // the settings the score was played under: another bot starts a new score
  };
  const BUTTONS = ["#play-deal", "#play-advice", "#play-draw"];

  function request(extra = {}) {
    return { ...play.settings, seed: play.seed, hand: play.hand, ...extra };
  }

  function showFailure(error) {
    if (!(error instanceof ApiError)) throw error;
    $("#play-error").textContent = error.message;
  }

  function cardButton(card) {
    const thrown = play.thrown.has(card);
    return el("button", {
      type: "button", class: `deck-card play-card suit-${card[1]}${thrown ? " thrown" : ""}`,
      "data-card": card, "aria-pressed": thrown ? "true" : "false", "aria-disabled": play.done ? "true" : null,
      title: thrown ? `${card}: thrown (click to keep)` : `${card}: kept (click to throw)`,
      text: card,
    });
  }

  function renderHand() {
    $("#play-hand").replaceChildren(...play.cards.map(cardButton));
  }

  function renderScore() {
    const s = play.score;
    $("#play-score").textContent =
      `Score vs the ${play.settings.bot} bot: ${s.wins} won, ${s.ties} tied, ${s.losses} lost`;
  }

  function setButtons() {
    $("#play-deal").textContent = play.hand === 0 ? "Deal" : "Next hand";
    $("#play-deal").disabled = !play.done;
    $("#play-draw").disabled = play.done;
    $("#play-advice").disabled = play.done;
  }

  // A choice changed mid-hand cannot change the hand being played (its deal and its bot are
  // fixed by the settings it was dealt under): say so, rather than show one bot and play another.
  function noteSettings() {
    const note = $("#play-settings-note");
    const changed = !play.done && play.settings !== null && (
      $("#play-bot").value !== play.settings.bot || $("#play-game").value !== play.settings.game ||
      Number($("#play-max-draw").value) !== play.settings.max_draw);
    note.hidden = !changed;
    note.textContent = changed
      ? `This hand goes on against the ${play.settings.bot} bot as dealt; ` +
        "the new choice applies from the next hand."
      : "";
  }

  async function deal() {
    $("#play-error").textContent = "";
    play.settings = {
      bot: $("#play-bot").value,
      game: $("#play-game").value,
      max_draw: Number($("#play-max-draw").value),
    };
    const key = JSON.stringify(play.settings);
    if (key !== play.scoreFor) {
      play.scoreFor = key;
      play.score = { wins: 0, ties: 0, losses: 0 };
      renderScore();
    }
    const next = play.hand + 1;
    await busy("#play-busy", BUTTONS, async () => {
      try {
        const data = await api("/api/draw/deal", { ...request(), hand: next });
        play.hand = next;
        play.cards = data.cards;
        play.thrown = new Set();
        play.done = false;
        noteSettings();
        $("#play-advice-text").hidden = true;
        $("#play-showdown").hidden = true;
        renderHand();
      } catch (error) {
        showFailure(error);
      }
    });
    setButtons();
  }

  async function showAdvice() {
    $("#play-error").textContent = "";
    await busy("#play-busy", BUTTONS, async () => {
      try {
        const best = (await api("/api/draw/deal", request({ advice: true }))).advice;
        const action = best.discard.length ? `draw ${best.discard.length}` : "stand pat";
        $("#play-advice-text").textContent = `Advice: keep ${best.keep.join(" ") || "nothing"}, ` +
          `${action} (expected percentile ${best.score.toFixed(3)}).`;
        $("#play-advice-text").hidden = false;
      } catch (error) {
        showFailure(error);
      }
    });
    setButtons();
  }

  function renderShowdown(data) {
    const head = ["", "Dealt", "Threw", "Final", "Hand"];
    // each cell names its column: a phone stacks a row's cells under these names (app.css)
    const row = (who, side) => el("tr", {},
      el("th", { scope: "row", text: who }),
      el("td", { class: "hand", "data-label": head[1], text: side.hand.join(" ") }),
      el("td", { class: "hand", "data-label": head[2], text: side.discard.join(" ") || "—" }),
      el("td", { class: "hand", "data-label": head[3], text: side.final.join(" ") }),
      el("td", { "data-label": head[4], text: side.category }));
    $("#play-table").replaceChildren(
      el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, row("You", data.player), row(`Bot (${data.bot})`, data.opponent)));
    const result = $("#play-result");
    result.textContent = { player: "You win", tie: "Tie", bot: `The ${data.bot} bot wins` }[data.winner];
    result.dataset.result = data.winner;
    $("#play-showdown").hidden = false;
  }

  async function draw() {
    $("#play-error").textContent = "";
    const keep = play.cards.filter((c) => !play.thrown.has(c));
    await busy("#play-busy", BUTTONS, async () => {
      try {
        const data = await api("/api/draw/showdown", request({ keep }));
        play.done = true;
        noteSettings();
        if (data.result > 0) play.score.wins += 1;
        else if (data.result < 0) play.score.losses += 1;
        else play.score.ties += 1;
        play.cards = data.player.final;
        play.thrown = new Set();
        renderHand();
        renderShowdown(data);
        renderScore();
      } catch (error) {
        showFailure(error);
      }
    });
    setButtons();
  }

  function toggle(event) {
    const button = event.target.closest("button[data-card]");
    if (!button || play.done) return;
    const card = button.dataset.card;
    if (play.thrown.has(card)) play.thrown.delete(card);
    else play.thrown.add(card);
    const focused = document.activeElement === button;
    renderHand();
    // the hand is drawn anew: a keyboard user keeps the card just toggled (focus went to body)
    if (focused) $(`#play-hand button[data-card="${CSS.escape(card)}"]`).focus();
  }

  function setup() {
    $("#play-deal").addEventListener("click", deal);
    $("#play-advice").addEventListener("click", showAdvice);
    $("#play-draw").addEventListener("click", draw);
    $("#play-hand").addEventListener("click", toggle);
    for (const id of ["#play-bot", "#play-game", "#play-max-draw"]) {
      $(id).addEventListener("change", noteSettings);
    }
    setButtons();
  }

  document.addEventListener("DOMContentLoaded", setup);
})();
