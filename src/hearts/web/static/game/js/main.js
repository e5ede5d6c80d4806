// The game's controller: which screen shows, what the person may do now, and the order in
// which the server's events are shown. Every rule comes from the server; this file only asks
// and shows.

import { api, Refused } from "./api.js";
import { $, h, clear, wait } from "./dom.js";
import { cardName, points } from "./cards.js";
import { Hand } from "./hand.js";
import { Table } from "./table.js";
import { renderSetup } from "./setup.js";
import { overlayPanel } from "./panels.js";
import { showLastTrick, showScores, showSettings } from "./dialogs.js";
import { loadPrefs, savePrefs, timing, isDismissed, dismiss } from "./prefs.js";
import { flyFrom, sweepTo } from "./animate.js";
import { passLabel, directionPhrase, roundTitle, nameOf, plural } from "./words.js";

const RECEIVED_FROM = { left: 3, right: 1, across: 2 };

const app = {
  options: null,
  prefs: loadPrefs(),
  state: null,
  selected: new Set(),
  busy: false,
  currentId: null,
};

const ui = {
  root: $("#game"),
  status: $("#status"),
  log: $("#log"),
  actions: $("[data-region=actions]"),
  overlay: $("[data-region=overlay]"),
  setup: $("[data-screen-part=setup]"),
  heading: $("[data-region=round]"),
};

let table;
let hand;

/** While a move is on its way or being shown, the table says so (tests wait on it). */
function setBusy(busy) {
  app.busy = busy;
  if (busy) ui.root.dataset.busy = "true";
  else delete ui.root.dataset.busy;
}

/** Put a sentence in the status line; `keep` holds it there until the person acts again
 * (a refusal's reason must not be replaced by "Your turn."). */
function say(text, keep = false) {
  ui.status.textContent = text || "";
  if (keep) ui.status.dataset.keep = "1";
  else delete ui.status.dataset.keep;
}

function narrate(text) {
  const line = h("p", {}, text);
  ui.log.append(line);
  while (ui.log.childElementCount > 6) ui.log.firstElementChild.remove();
}

function showScreen(name) {
  document.body.dataset.screen = name;
  ui.setup.hidden = name !== "setup";
  ui.root.hidden = name !== "table";
  if (name === "table") {
    if (location.hash !== "#play") history.replaceState(null, "", "#play");
  } else if (location.hash) {
    history.replaceState(null, "", location.pathname + location.search);
  }
}

function applyLook() {
  document.body.classList.toggle("four-colour", Boolean(app.prefs.fourColour));
}

// --- setup --------------------------------------------------------------------------

async function showSetup() {
  try {
    app.currentId = (await api.current()).id;
  } catch {
    app.currentId = null;
  }
  renderSetup(ui.setup, {
    options: app.options,
    prefs: app.prefs,
    canContinue: Boolean(app.currentId),
    onStart: startGame,
    onContinue: () => resume(app.currentId),
    onChange: (prefs) => savePrefs(prefs),
  });
  showScreen("setup");
}

async function startGame() {
  if (app.busy) return;
  setBusy(true);
  const rules = { ...app.prefs.rules, target_score: app.prefs.target };
  try {
    const state = await api.newGame(app.prefs.levels, rules);
    savePrefs(app.prefs);
    app.selected = new Set();
    clear(ui.log);
    showScreen("table");
    app.state = { ...state, events: [] };
    render(app.state, { waiting: true });
    await showEvents(state, { fromView: null });
    app.state = state;
    render(state);
  } catch (error) {
    if (document.body.dataset.screen === "table") say(error.message, true);
    else showSetupError(error);
  } finally {
    setBusy(false);
    if (app.state && document.body.dataset.screen === "table") render(app.state);
  }
}

function showSetupError(error) {
  let note = ui.setup.querySelector("[data-region=setup-error]");
  if (!note) {
    note = h("p", { class: "error", "data-region": "setup-error", role: "alert" });
    ui.setup.prepend(note);
  }
  note.textContent = error.message;
  note.scrollIntoView({ block: "center" });
}

async function resume(id) {
  try {
    const state = await api.game(id);
    app.state = state;
    app.selected = new Set();
    showScreen("table");
    render(state);
  } catch (error) {
    await showSetup();
    showSetupError(error);
  }
}

// --- drawing the table ---------------------------------------------------------------

function phaseOf(state) {
  return state.phase === "moon-choice" ? "round-over" : state.phase;
}

function receivedCards(state) {
  const view = state.view;
  if (!view.received || view.phase !== "playing") return new Set();
  const played = view.tricks.some((t) => t.plays.some(([seat]) => seat === 0)) ||
    view.trick.some(([seat]) => seat === 0);
  if (played || isDismissed(state.id, view.hand_number)) return new Set();
  return new Set(view.received);
}

function render(state, { waiting = false } = {}) {
  const view = state.view;
  ui.root.dataset.phase = phaseOf(state);
  ui.heading.textContent = `${roundTitle(view.hand_number)} · ${directionPhrase(view.pass_direction)}`;
  const myTurn = !waiting && state.phase === "playing" && view.turn === 0;
  table.renderSeats({
    state,
    pointsTaken: view.points_taken,
    handSizes: view.hand_sizes,
    turn: waiting ? null : view.turn,
    showPoints: app.prefs.showPoints,
  });
  table.showTrick(view.trick);
  table.setHearts(view.hearts_broken);
  table.setLastTrick(view.tricks.length > 0);
  const passing = !waiting && state.phase === "passing" && view.waiting_to_pass.includes(0);
  const received = receivedCards(state);
  hand.render({
    cards: view.hand,
    mode: passing ? "pass" : myTurn ? "play" : "wait",
    legal: new Set(view.legal),
    selected: app.selected,
    received,
  });
  drawActions(state, { passing, myTurn, received, waiting });
  drawOverlay(state, waiting);
  if (myTurn && !app.busy && hand.root.contains(document.activeElement) === false &&
    (document.activeElement === document.body || !document.activeElement)) {
    hand.focusFirst((card) => view.legal.includes(card));
  }
}

function drawActions(state, { passing, myTurn, received, waiting }) {
  const view = state.view;
  const parts = [];
  if (passing) {
    const need = view.cards_to_pass;
    const left = need - app.selected.size;
    parts.push(h("button", {
      type: "button", class: "primary", "data-action": "pass", disabled: left !== 0,
      onclick: sendPass,
    }, passLabel(state)));

  } else if (state.phase === "playing" && received.size) {
    const from = RECEIVED_FROM[view.pass_direction];
    const who = from !== undefined ? nameOf(state, from) : "the others";
    parts.push(h("span", { class: "hint received-note" },
      h("span", { class: "dot", "aria-hidden": "true" }), `Marked: passed to you by ${who}.`));
    parts.push(h("button", {
      type: "button", class: "quiet", "data-action": "dismiss",
      onclick: () => { dismiss(state.id, view.hand_number); render(app.state); },
    }, "Unmark"));
  }
  clear(ui.actions, parts);
  if (waiting) return;
  if (passing) {
    const left = view.cards_to_pass - app.selected.size;
    if (!ui.status.dataset.keep) {
      say(left === view.cards_to_pass ? `Choose ${plural(left, "card")} to pass.`
        : left > 0 ? `Choose ${plural(left, "more card")}.` : "Ready: press Pass.");
    }
    const to = view.pass_to.map((seat) => nameOf(state, seat)).join(", ");
    table.setMessage(`${directionPhrase(view.pass_direction)}: your cards go to ${to}. You get yours once everyone has passed.`);
  } else if (myTurn) {
    const lead = view.trick.length === 0;
    if (!ui.status.dataset.keep) say(lead ? "Your lead." : "Your turn.");
  } else if (!ui.status.dataset.keep && state.phase !== "playing") {
    say("");
  }
  if (state.phase === "playing" && !received.size) {
    const hold = view.pass_direction === "hold" && view.tricks.length === 0;
    table.setMessage(hold ? "No passing this round: everyone keeps their cards." : "");
  }
}

function drawOverlay(state, waiting) {
  const content = waiting ? null : overlayPanel(state, app.options.opponents, {
    moon: sendMoon, next: sendNext, again: startGame, setup: showSetup,
  });
  ui.overlay.hidden = !content;
  clear(ui.overlay, content);
  if (content) focusFirstButton();
}

function focusFirstButton() {
  const button = ui.overlay.querySelector("button.primary");
  if (button) button.focus({ preventScroll: true });
}

// --- the person's moves --------------------------------------------------------------

function onCard(card, button) {
  const state = app.state;
  if (!state || app.busy) return;
  const mode = hand.root.dataset.mode;
  if (mode === "pass") {
    const need = state.view.cards_to_pass;
    if (app.selected.has(card)) app.selected.delete(card);
    else if (app.selected.size < need) app.selected.add(card);
    else {
      say(`You have chosen ${need} already; tap one of them to put it back.`, true);
      return;
    }
    say("");
    render(state);
    return;
  }
  if (mode === "play") {
    if (button.dataset.legal === "true") {
      sendPlay(card, button);
    } else {
      say(state.reasons[card] || "You cannot play that card now.", true);
      button.classList.remove("shake");
      void button.offsetWidth;
      button.classList.add("shake");
    }
    return;
  }
  if (state.phase === "playing") say("Wait for your turn.");
}

async function sendPass() {
  const state = app.state;
  if (app.busy || app.selected.size !== state.view.cards_to_pass) return;
  setBusy(true);
  const cards = [...app.selected];
  say("");
  try {
    const next = await api.pass(state.id, state.move, cards);
    app.selected = new Set();
    narrate(`You passed ${cards.map(cardName).join(", ")}.`);
    await showEvents(next, { fromView: state.view });
    app.state = next;
  } catch (error) {
    await recover(error);
  } finally {
    setBusy(false);
    render(app.state);
  }
}

async function sendPlay(card, button) {
  const state = app.state;
  setBusy(true);
  say("");
  const from = button.getBoundingClientRect();
  // The card goes down at once; the server's answer follows.
  const inHand = state.view.hand.filter((c) => c !== card);
  hand.render({ cards: inHand, mode: "wait" });
  const placed = table.place(0, card);
  const t = timing(app.prefs);
  const flight = flyFrom(placed, from, t.fly);
  try {
    const next = await api.play(state.id, state.move, card);
    await flight;
    await showEvents(next, { fromView: state.view, skipOwnPlay: true });
    app.state = next;
  } catch (error) {
    await recover(error);
  } finally {
    setBusy(false);
    render(app.state);
  }
}

async function sendNext() {
  await simpleMove((s) => api.next(s.id, s.move), { clearTable: true });
}

async function sendMoon(choice) {
  await simpleMove((s) => api.moon(s.id, s.move, choice));
}

async function simpleMove(request, { clearTable = false } = {}) {
  if (app.busy) return;
  setBusy(true);
  const state = app.state;
  try {
    const next = await request(state);
    if (clearTable) {
      app.selected = new Set();
      table.clearTrick();
    }
    ui.overlay.hidden = true;
    render({ ...next }, { waiting: true });
    await showEvents(next, { fromView: null });
    app.state = next;
  } catch (error) {
    await recover(error);
  } finally {
    setBusy(false);
    render(app.state);
  }
}

/** After a refusal: say why, and if the game moved on elsewhere, load it as it is now. */
async function recover(error) {
  const message = error instanceof Refused ? error.message : "Something went wrong; please try again.";
  say(message, true);
  if (!(error instanceof Refused) || !app.state) return;
  if (error.status === 409 && error.body?.state) {
    // The game moved on (another tab, a lost answer): catch up from the state sent back.
    app.state = error.body.state;
    app.selected = new Set();
  } else if (error.status === 409 || error.status === 0) {
    try {
      app.state = await api.game(app.state.id);
    } catch {
      // Keep the state we have; the message already says what is wrong.
    }
  }
}

// --- showing what happened -------------------------------------------------------------

async function showEvents(next, { fromView, skipOwnPlay = false }) {
  const t = timing(app.prefs);
  const base = fromView || next.view;
  let trick = fromView ? fromView.trick.slice() : [];
  const pointsTaken = fromView ? fromView.points_taken.slice() : [0, 0, 0, 0];
  const sizes = fromView ? fromView.hand_sizes.slice() : next.view.hand_sizes.slice();
  if (!fromView) {
    // A fresh round: the cards played in these events were still in hand when it began.
    for (const event of next.events) {
      if (event.type === "deal") sizes.splice(0, 4, ...next.view.hand_sizes);
      if (event.type === "play") sizes[event.seat] += 1;
    }
  }
  const seats = (turn) => table.renderSeats({
    state: next, pointsTaken, handSizes: sizes, turn, showPoints: app.prefs.showPoints,
  });
  if (!next.events.length) return;
  ui.root.dataset.animating = "true";
  // The hand as it ends up (after any exchange), with nothing playable while others move.
  hand.render({ cards: next.view.hand, mode: "wait", received: receivedCards(next) });
  if (skipOwnPlay) sizes[0] = base.hand_sizes[0] - 1;
  for (const event of next.events) {
    if (event.type === "play") {
      if (event.seat === 0 && skipOwnPlay) {
        skipOwnPlay = false;
        trick.push([0, event.card]);
        continue;
      }
      if (trick.length === 4) trick = [];
      sizes[event.seat] -= 1;
      trick.push([event.seat, event.card]);
      seats(event.seat);
      const placed = table.place(event.seat, event.card);
      narrate(`${event.seat === 0 ? "You" : nameOf(next, event.seat)} played the ${cardName(event.card)}.`);
      await flyFrom(placed, table.seatBox(event.seat), t.fly);
      seats((event.seat + 1) % 4);
    } else if (event.type === "trick") {
      table.markWinner(event.winner);
      const taken = event.cards.reduce((sum, c) => sum + points(c), 0);
      const who = event.winner === 0 ? "You take" : `${nameOf(next, event.winner)} takes`;
      narrate(`${who} the trick${taken ? `, ${plural(taken, "point")}` : ""}.`);
      if (event.winner !== 0 && event.cards.includes("QS")) {
        table.say(event.winner, app.options.opponents[event.winner - 1].quips.queen);
      }
      await wait(t.pause);
      const cards = [...ui.root.querySelectorAll("[data-played]")];
      await sweepTo(cards, table.seatBox(event.winner), t.fly);
      table.clearTrick();
      trick = [];
      event.points_taken.forEach((p, seat) => { pointsTaken[seat] = p; });
      seats(event.winner);
    } else if (event.type === "kitty") {
      const who = event.seat === 0 ? "You take" : `${nameOf(next, event.seat)} takes`;
      const line = `${who} the kitty: ${event.cards.map(cardName).join(", ")}.`;
      narrate(line);
      table.setMessage(line);
      await wait(t.pause);
    } else if (event.type === "hearts-broken") {
      table.setHearts(true);
      narrate("Hearts are broken.");
    } else if (event.type === "exchange") {
      const from = RECEIVED_FROM[next.view.pass_direction];
      const who = from !== undefined ? nameOf(next, from) : "the others";
      narrate(`${who} passed you ${event.received.map(cardName).join(", ")}.`);
      table.setMessage(`${who} passed you ${plural(event.count, "card")}: they are marked in your hand.`);
      await wait(t.pause);
    } else if (event.type === "moon-choice" && event.seat !== 0) {
      narrate(`${nameOf(next, event.seat)} chose to ${event.choice === "add" ? "give everyone else 26" : "take 26 off"}.`);
    } else if (event.type === "round-over" && event.result.shooter !== null && event.result.shooter !== 0) {
      table.say(event.result.shooter, app.options.opponents[event.result.shooter - 1].quips.moon);
    }
  }
  delete ui.root.dataset.animating;
}

// --- start -------------------------------------------------------------------------------

async function boot() {
  applyLook();
  hand = new Hand($("[data-region=hand]"), { onCard });
  $("[data-action=scores]").addEventListener("click", () => showScores(app.state));
  $("[data-action=settings]").addEventListener("click", () => showSettings(app.prefs, () => {
    savePrefs(app.prefs);
    applyLook();
    if (app.state && !app.busy) render(app.state);
  }));
  $("[data-action=menu-new]").addEventListener("click", () => { if (!app.busy) showSetup(); });
  try {
    app.options = await api.options();
  } catch (error) {
    clear(ui.setup, h("p", { class: "error", role: "alert" }, error.message));
    showScreen("setup");
    return;
  }
  table = new Table(ui.root, app.options.opponents, { onLastTrick: () => showLastTrick(app.state) });
  let current = null;
  try {
    current = (await api.current()).id;
  } catch {
    current = null;
  }
  if (location.hash === "#play" && current) await resume(current);
  else await showSetup();
  document.body.dataset.ready = "true";
}

boot();
