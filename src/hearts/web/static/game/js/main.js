// The game's controller: which screen shows, what the person may do now, and the order in
// which the server's events are shown. Every rule comes from the server; this file only asks
// and shows. Seats and their number come from the state the server sends.

import { api, GONE_OFFLINE, OFFLINE, Refused, UNREACHABLE } from "./api.js";
import { $, h, clear, wait, SIDEWAYS } from "./dom.js";
import { cardName, cardSymbol, sortCards } from "./cards.js";
import { Hand } from "./hand.js";
import { Table } from "./table.js";
import { renderSetup } from "./setup.js";
import { overlayPanel } from "./panels.js";
import { confirmHostLeavesLobby, confirmLeave, confirmLeaveLobby, confirmNewGame, lastTrickLine, showScores, showSettings, showTricks } from "./dialogs.js";
import { loadPrefs, savePrefs, soundOn, timing, isDismissed, dismiss } from "./prefs.js";
import { play as playSound } from "./sound.js";
import { applyTheme } from "./theme.js";
import { foldingMenu } from "./menu.js";
import { keepShown, shownBefore } from "./shown-game.js";
import { flyFrom, sweepTo } from "./animate.js";
import { bonusCard, summarize, takenSummary, wonCards } from "./taken.js";
import { noteDeal } from "./deal-check.js";
import { canAskHint, mountHint, putHintAway, renderHint } from "./hint.js";
import { mountUndo, renderUndo, undoComingWords, undoNamesCard, undoneWords } from "./undo.js";
import { Live } from "./live.js";
import { emojiShown, hintNews, goneTurnLine, isFriends, noteClosed, reactionBar, reactionText, sayNameProblem, seatGone, TurnClock, tableBody } from "./friends.js";
import { renderLobby, lobbyError, renderJoin, renderNoTable } from "./lobby.js";
import {
  passLabel, directionPhrase, directionShort, neverPasses, NO_PASSING, roundTitle, named, nameOf, plural, passedFrom, isMe,
  whoIs, seating, listed, quipLine,
} from "./words.js";

const app = {
  options: null,
  prefs: loadPrefs(),
  state: null,
  selected: new Set(),
  busy: false,
  afterBusy: null, // what to do once the table is no longer busy (a tap on New meanwhile)
  later: new Map(), // Undo or Hint pressed while cards moved, done once they stop: kind -> task
  undoing: false, // a take-back is on its way
  unfinished: [],
  gamesAsked: null, // the start screen's list, asked for as the page starts
  listAgain: null, // a timer: the list asked for again after it could not be had
  autoPlayed: null,
  live: null, // the event stream of a table with friends
  chain: Promise.resolve(), // answers and stream messages are shown one after another
  queued: 0, // stream messages waiting their turn on the chain
  standIn: null, // the note of moves made for the person while away, once said: {key, trick, words}
  // A card or pass that could not go yet (the device offline, the server not answering),
  // sent by `sendHeld` if the game still waits for it: {id, move, round, line, tries, card}
  // or {..., pass: true}; and the timer of its next try.
  held: null,
  heldTimer: 0,
  turnLine: null, // another's turn waiting to be said, once it has lasted: {text, timer}
  lobbyNews: "", // the lobby's news: its last comer or leaver ("Zoë left the table."), or a note
};

const ui = {
  root: $("#game"),
  status: $("#status"),
  log: $("#log"),
  actions: $("[data-region=actions]"),
  overlay: $("[data-region=overlay]"),
  setup: $("[data-screen-part=setup]"),
  roundNumber: $(".round-n"),
  roundPass: $(".round-pass"),
  tricks: $("[data-action=tricks]"),
  sound: $("[data-action=sound]"),
  lobby: $("[data-screen-part=lobby]"),
  liveNote: $("[data-region=live]"),
  reactions: $("[data-region=reactions-slot]"),
  trick: $("[data-region=trick]"),
  hand: $("[data-region=hand]"),
  skip: $("a.skip"),
};

let table;
let hand;
// The countdown is not read out: a screen reader hears once that time is short.
const clock = new TurnClock(document, (left) =>
  narrate(`${left} seconds left: then a computer player moves for you.`));

/** While a move is on its way or being shown, the table says so (tests wait on it). */
function setBusy(busy) {
  app.busy = busy;
  if (busy) ui.root.dataset.busy = "true";
  else delete ui.root.dataset.busy;
  // A tap on the header's New while cards moved is answered once they have stopped (it
  // was dropped: four taps before the question came), after the table is drawn.
  if (!busy && app.afterBusy) {
    const then = app.afterBusy;
    app.afterBusy = null;
    setTimeout(() => (app.busy ? (app.afterBusy = then) : then()), 0);
  }
  if (!busy && app.later.size) setTimeout(runLater, 0);
}

/** Undo or Hint pressed while the others' cards were coming in, done now that they have
 * stopped (after the table is drawn), one after another: each waits while the one before
 * keeps the table busy. They were dropped unsaid, and a misclicked card is noticed just
 * then. */
function runLater() {
  for (const [kind, task] of app.later) {
    if (app.busy) return; // the one before is under way: the rest go once it is done
    app.later.delete(kind);
    task();
  }
}

/** Keep `task` for when the cards stop moving, if they are moving now (else false). */
function whenStill(kind, task) {
  if (!app.busy) return false;
  const id = app.state?.id;
  app.later.set(kind, () => { if (app.state?.id === id) task(); });
  return true;
}

/** Put a sentence in the status line; `keep` holds it there until the person acts again
 * (a refusal's reason must not be replaced by "Your turn."). */
function say(text, keep = false) {
  const said = text || "";
  clearTimeout(app.turnLine?.timer); // a line said now replaces one waiting to be said
  app.turnLine = null;
  // Under a panel the status line is out of sight and out of a screen reader's reach (the
  // table is inert): the panel shows the words by its way on, and the log reads them out.
  if (said && said !== ui.status.textContent && !ui.overlay.hidden) narrate(said);
  // The same words are not written again: a live region rewritten is read out again (each
  // state streamed is drawn more than once, and the line said twice).
  if (said !== ui.status.textContent) ui.status.textContent = said;
  if (keep) ui.status.dataset.keep = "1";
  else delete ui.status.dataset.keep;
  sayOnPanel();
}

/** Milliseconds another's turn must last before the status line says it. */
const TURN_LINE_MS = 250;

/** "Marisol to play.", said once the table has stayed at that turn a moment: a computer
 * player moves at once, and its turn was said and replaced by "Your turn." within 25 ms,
 * before each of the person's turns (a screen reader read both). Any line said meanwhile,
 * or the next state's, replaces it. */
function sayTurnSoon(text) {
  if (app.turnLine?.text === text) return; // the same state drawn again: its wait goes on
  clearTimeout(app.turnLine?.timer);
  app.turnLine = null;
  if (text === ui.status.textContent) return;
  const id = app.state?.id;
  const timer = setTimeout(() => {
    app.turnLine = null;
    if (app.state?.id === id && document.body.dataset.screen === "table" && !ui.status.dataset.keep) say(text);
  }, TURN_LINE_MS);
  app.turnLine = { text, timer };
}

/** The status line's words on the panel over the table, if one is up. */
function sayOnPanel() {
  const line = ui.overlay.querySelector("[data-region=panel-status]");
  if (!line) return;
  line.textContent = ui.status.textContent;
  line.hidden = !line.textContent;
}

function narrate(text) {
  const line = h("p", {}, text);
  ui.log.append(line);
  while (ui.log.childElementCount > 6) ui.log.firstElementChild.remove();
}

function sound(name) {
  playSound(name, soundOn(app.prefs));
}

function showScreen(name) {
  // Another screen starts at its top: the lobby opened from the foot of the start screen was
  // drawn scrolled past its link and Start now.
  if (document.body.dataset.screen !== name) window.scrollTo(0, 0);
  document.body.dataset.screen = name;
  ui.setup.hidden = name !== "setup";
  ui.lobby.hidden = name !== "lobby";
  ui.root.hidden = name !== "table";
  if (name !== "table" && name !== "lobby") stopLive();
  // A table with friends keeps its id in the address, so a reload or a copied address
  // returns to it; a single-player game keeps the old "#play".
  const params = new URLSearchParams(location.search);
  const friends = (name === "table" || name === "lobby") && isFriends(app.state);
  if (friends) params.set("table", app.state.id);
  else if (name === "setup") params.delete("table");
  if (name === "table" && !friends && app.state) keepShown(app.state.id);
  else if (name === "setup") keepShown(null);
  const search = params.toString() ? `?${params}` : "";
  const hash = name === "table" || name === "lobby" ? "#play" : "";
  if (location.search + location.hash !== search + hash) {
    history.replaceState(null, "", location.pathname + search + hash);
  }
}

function applyLook() {
  document.body.classList.toggle("four-colour", Boolean(app.prefs.fourColour));
  const on = soundOn(app.prefs);
  ui.sound.setAttribute("aria-pressed", on ? "true" : "false");
  // One word, struck through while off (game.css): "Sound off" read as a command to a
  // newcomer, and "Sound: on" pushed the tools onto a second row on a 360 px phone.
  ui.sound.textContent = "Sound";
}

// --- setup --------------------------------------------------------------------------

/** After the list of unfinished games could not be had (the server or its database away),
 * it is asked for again by itself, less often each time. */
const LIST_AGAIN_MS = [3000, 6000, 12000, 30000];
const PASSING = new Set([0, 502, 503, 504]); // failures that go away by themselves

async function showSetup() {
  let listError = null;
  let listComing = false;
  clearTimeout(app.listAgain);
  // The list asked for as the page started, once (boot), else now.
  const asked = app.gamesAsked || api.games();
  app.gamesAsked = null;
  try {
    app.unfinished = await asked;
  } catch (error) {
    // Said, not hidden: the list is how a person goes back to a game (a table they left).
    app.unfinished = [];
    listError = error.message;
    listComing = PASSING.has(error.status);
  }
  renderSetup(ui.setup, {
    options: app.options,
    prefs: app.prefs,
    unfinished: app.unfinished,
    listError,
    listComing,
    onRetry: showSetup,
    onStart: askToStart,
    onInvite: startTable,
    onContinue: (id) => resume(id),
    onChange: (prefs) => { savePrefs(prefs); applyTheme(); },
  });
  showScreen("setup");
  if (listComing) listAgainLater(0);
  // From anywhere else (the header's New, "Change the table" on the game-over panel, leaving
  // a table of friends): the keyboard starts at the top of it. The button pressed keeps the
  // focus in its hidden screen until the browser notices, a frame later, and then drops it
  // on the page's body, so a focus outside this screen counts as lost now. A start screen
  // drawn again (its list come at last) keeps the focus where it is.
  const active = document.activeElement;
  if (!active || active === ui.setup || !ui.setup.contains(active)) {
    ui.setup.querySelector("h1")?.focus({ preventScroll: true });
  }
}

/** Ask for the list again after a wait; shown (in place of the failure) only when it comes,
 * so that a failure said once is not said again at every try. */
function listAgainLater(tries) {
  app.listAgain = setTimeout(async () => {
    const failed = () => document.body.dataset.screen !== "setup"
      || !ui.setup.querySelector("[data-region=list-error]");
    if (failed()) return; // left the start screen, or the list came some other way
    let games;
    try {
      games = await api.games();
    } catch (error) {
      if (PASSING.has(error.status) && !failed()) listAgainLater(tries + 1);
      return;
    }
    if (failed()) return;
    app.gamesAsked = Promise.resolve(games);
    await showSetup();
  }, LIST_AGAIN_MS[Math.min(tries, LIST_AGAIN_MS.length - 1)]);
}

/** A new game leaves the unfinished ones saved; with one in progress, ask first. */
function askToStart() {
  const kept = app.unfinished.find((game) => !game.damaged); // a damaged one cannot go on
  if (!kept) return startGame();
  const closing = app.unfinished.find((game) => game.closes);
  return confirmNewGame(kept, closing, { start: startGame, keep: () => resume(kept.id) });
}

async function startGame() {
  if (app.busy) return;
  setBusy(true);
  const rules = { ...app.prefs.rules, target_score: app.prefs.target };
  try {
    const players = app.prefs.players || app.options.defaults.players;
    rules.players = players;
    const levels = app.options.opponents.slice(0, players - 1)
      .map((_, i) => app.prefs.levels[i] || app.options.levels[0].name);
    const state = await api.newGame(levels, rules, app.prefs.undo !== false);
    savePrefs(app.prefs);
    app.selected = new Set();
    clear(ui.log);
    app.state = { ...state, events: [] };
    showScreen("table");
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
    keepFocus();
  }
}

/** "Invite friends": make the table with people's seats, then show its lobby. */
async function startTable() {
  if (app.busy) return;
  setBusy(true);
  const players = app.prefs.players || app.options.defaults.players;
  const rules = { ...app.prefs.rules, target_score: app.prefs.target, players };
  try {
    const state = await api.newTable(tableBody(app.prefs, rules));
    savePrefs(app.prefs);
    enter(state);
  } catch (error) {
    // A name the server refused is said under the name box, which is marked wrong, as the
    // join page does: at the top of the page it was far from the box it was about.
    const box = error instanceof Refused && error.body?.field === "name" && ui.setup.querySelector("#host-name");
    if (box) {
      ui.setup.querySelector("[data-region=setup-error]")?.remove();
      sayNameProblem(box, ui.setup.querySelector("#host-name-note"), error.message);
      box.focus();
      box.scrollIntoView({ block: "center" });
    } else {
      showSetupError(error);
    }
  } finally {
    setBusy(false);
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
  // The keyboard goes to what went wrong: it stayed on "Deal the cards", far below the alert.
  note.tabIndex = -1;
  note.focus({ preventScroll: true });
}

async function resume(id) {
  try {
    enter(await api.game(id));
  } catch (error) {
    await showSetup();
    showSetupError(error);
  }
}

/** Show a game as it stands (no flights): the lobby of a table not started yet, else the
 * table; a table with friends opens its event stream. */
function enter(state) {
  stopLive();
  app.later.clear(); // another game: what was asked of the one before is not done here
  app.state = state;
  app.selected = chosenBefore(state);
  app.lobbyNews = "";
  clear(ui.log);
  if (isFriends(state)) startLive(state.id);
  if (isFriends(state) && !state.table.started) {
    showLobby(state);
  } else {
    showScreen("table");
    render(state);
    keepFocus(); // the start screen's Continue has gone
  }
}

// --- a table with friends: the lobby, the stream, reactions, away, rematch ----------------

function showLobby(state) {
  // No round yet: the header says nothing of the game before (a rematch's lobby).
  ui.roundNumber.textContent = "";
  ui.roundPass.textContent = "";
  renderLobby(ui.lobby, state, app.options, { start: startNow }, app.lobbyNews);
  showScreen("lobby");
  // Come from the start screen (its Invite button gone), the keyboard starts at the lobby's
  // heading, which says whose table it is; a lobby drawn again keeps the focus where it is.
  // The Invite button keeps the focus until the browser notices its screen hidden, a frame
  // later: a focus in a hidden screen counts as lost now (it fell to the page, and reached
  // the heading only if the stream's first news came after that frame).
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected || active.closest("[hidden]");
  if (lost) ui.lobby.querySelector("h1")?.focus({ preventScroll: true });
}

async function startNow() {
  if (app.busy) return;
  setBusy(true);
  try {
    const state = await api.start(app.state.id);
    await serial(() => ingest(state));
  } catch (error) {
    lobbyError(ui.lobby, error.message);
  } finally {
    setBusy(false);
    // The stream may have shown the computer players' first cards while the answer was
    // awaited (its messages are not drawn while the person's own request is out): draw the
    // table as it stands, or it stayed at the deal with nobody's turn shown.
    if (app.state && document.body.dataset.screen === "table") render(app.state);
  }
}

function startLive(id) {
  app.live = new Live(id, {
    since: () => (app.state?.id === id ? app.state.move : null),
    onState: (state) => {
      app.queued += 1;
      return serial(() => {
        app.queued -= 1;
        return ingest(state, { streamed: true, behind: app.queued > 0 });
      });
    },
    onStatus: (status) => {
      const was = document.body.dataset.live;
      ui.liveNote.hidden = status !== "reconnecting";
      document.body.dataset.live = status;
      // Reconnecting, the clocks stop showing and the seats' dots say nothing is known (the
      // person's own: not connected); back, they show again (a page showing moves draws the
      // table once they are shown).
      if (was === status) return;
      clock.tick();
      redrawSigns();
    },
    onGone: (detail) => {
      ui.liveNote.hidden = true;
      document.body.dataset.live = "gone";
      say(detail, true);
    },
    // Left in another tab (the seat went back to the invitation): this one shows the table
    // no more, and says why.
    onLeft: (detail) => serial(() => {
      if (app.state?.id !== id) return;
      stopLive();
      renderNoTable(ui.setup, detail);
      showScreen("setup");
    }),
  });
}

/** Whether the person is playing at a table of friends (started, not over, not away):
 * going to the start screen leaves the table, so it asks first. */
function atTableOfFriends(state) {
  return Boolean(state) && document.body.dataset.screen === "table" && isFriends(state)
    && state.table.started && state.phase !== "game-over" && !state.players[state.view.seat].away;
}

/** Whether the person is a friend (not the host) in the lobby of a table not started yet:
 * leaving gives their seat back to the invitation, so it asks first. */
function inFriendsLobby(state) {
  return Boolean(state) && document.body.dataset.screen === "lobby" && isFriends(state)
    && !state.table.started && !state.table.host;
}

/** Whether the person is the host in the lobby of their table not started yet. */
function hostInLobby(state) {
  return Boolean(state) && document.body.dataset.screen === "lobby" && isFriends(state)
    && !state.table.started && Boolean(state.table.host);
}

/** The host leaves the lobby: the table stays theirs, and waits (the server keeps the
 * seat; the others see the host gone once this page's stream closes). */
async function leaveLobbyAsHost() {
  stopLive();
  await showSetup();
}

function othersHere(state) {
  const names = state.players.filter((p, seat) => p.person && !p.away && seat !== state.view.seat)
    .map((p) => named(p.name));
  return names.length ? listed(names) : "the others";
}

/** Leave the table now (a computer player takes over at once; from a lobby, the seat goes
 * back to the invitation), then the start screen. */
async function leaveTable() {
  const id = app.state.id;
  setBusy(true);
  stopLive();
  try {
    await api.leave(id);
  } catch (error) {
    if (app.state?.id === id) startLive(id);
    say(error.message, true);
    return;
  } finally {
    setBusy(false);
  }
  await showSetup();
}

/** The table drawn again for its seats' signs (the person's own dot goes out while the
 * device is offline or the stream reconnecting), unless it is busy showing moves: the
 * drawing after them reads the same. */
function redrawSigns() {
  if (app.state && !app.busy && document.body.dataset.screen === "table" && isFriends(app.state)) render(app.state);
}

function stopLive() {
  if (app.live) app.live.close();
  app.live = null;
  ui.liveNote.hidden = true;
  delete document.body.dataset.live;
}

/** Run `task` after every answer and message before it has been shown. */
function serial(task) {
  const run = app.chain.then(task);
  app.chain = run.catch(() => {});
  return run;
}

const NOTICES = new Set(["joined", "left", "started", "away", "back", "page-closed", "page-opened", "reaction",
  "ready", "rematch", "hint", "reconnecting", "reconnected"]);
// Events that showEvents draws step by step; any other (a pass: no cards shown) needs none.
const SHOWN = new Set(["play", "trick", "kitty", "hearts-broken", "exchange", "moon-choice", "round-over",
  "game-over", "deal"]);

/**
 * Show a state that came from the stream or as an answer: animate only the events of moves
 * after the one shown (n > move; the answer to the person's own move and the stream carry
 * the same moves, and each is shown once), then draw the state.
 */
async function ingest(next, { streamed = false, skipOwn = false, behind = false } = {}) {
  const current = app.state;
  if (!current || next.id !== current.id) return;
  if (streamed) showNotices(next);
  if (next.move < current.move) return; // older than what is on the screen
  // The game has moved on: a line kept on screen (a refused card, a lost connection) is old
  // news, and the status says again whose turn it is (but an Undo waiting for these moves
  // to be shown is not: it says it is coming).
  if (next.move > current.move && ui.status.dataset.keep && !app.later.has("undo")) say("");
  if (isFriends(next) && !next.table.started) {
    app.state = next;
    showLobby(next);
    return;
  }
  if (document.body.dataset.screen !== "table") {
    app.state = next;
    showScreen("table");
    render(next);
    keepFocus(); // the lobby's buttons have gone (the table started, a rematch joined)
    return;
  }
  let fresh = next.events.filter((e) => !NOTICES.has(e.type) && (e.n === undefined || e.n > current.move));
  const own = app.busy;
  if (behind && !own && fresh.some((e) => SHOWN.has(e.type))) {
    // Newer messages wait behind this one: the page has fallen behind the table (a phone
    // asleep, a slow one), so this one is drawn at once, and only the newest is shown
    // moving. A page 25 moves behind played each card in turn while the turn clock ran, and
    // the round's end went by before it was seen.
    if (fresh.some((e) => e.type === "deal")) {
      app.selected = new Set();
      table.clearTrick();
    }
    app.state = next;
    sayStandIns(next, fresh);
    render(next);
    return;
  }
  if (!fresh.some((e) => SHOWN.has(e.type))) {
    // Nothing to show moving (another person's pass, a seat's news): draw the state at once,
    // without a busy moment that would swallow a tap on a card being chosen.
    app.state = next;
    if (!own) render(next);
    return;
  }
  if (!own) setBusy(true);
  try {
    const deal = fresh.map((e) => e.type).lastIndexOf("deal");
    if (deal >= 0) {
      // A new round: show it from its deal, as when the person deals.
      fresh = fresh.slice(deal);
      app.selected = new Set();
      table.clearTrick();
      showOverlay(null);
      render({ ...next }, { waiting: true });
      await showEvents({ ...next, events: fresh }, { fromView: null });
    } else {
      await showEvents({ ...next, events: fresh }, { fromView: current.view, skipOwnPlay: skipOwn });
    }
    app.state = next;
  } finally {
    if (!own) setBusy(false);
    if (!own) render(app.state);
    if (!own) keepFocus();
  }
}

/** Table notices from the stream: reactions and hints at the seat, a rematch offered. */
function showNotices(next) {
  const me = next.view.seat;
  for (const event of next.events) {
    if (event.type === "reaction" && event.seat !== me) {
      table.say(event.seat, reactionText(app.options.reactions, event.reaction), 2500);
      narrate(`${nameOf(next, event.seat)}: ${reactionText(app.options.reactions, event.reaction)}`);
    } else if ((event.type === "joined" || event.type === "left") && event.seat !== me) {
      // Shown in the lobby too (the log is for screen readers), until the next comes or goes.
      app.lobbyNews = `${named(event.name)} ${event.type === "left" ? "left" : "joined"} the table.`;
      narrate(app.lobbyNews);
    } else if (event.type === "away" && event.seat !== me) {
      narrate(`${nameOf(next, event.seat)} is away: a computer player plays for them.`);
    } else if (event.type === "back" && event.seat !== me) {
      const rematch = next.table.rematch_of && !next.table.started;
      narrate(`${nameOf(next, event.seat)} ${rematch ? "came for the rematch" : "is back"}.`);
    } else if (event.type === "hint" && event.seat !== me) {
      // Said at their seat for a moment, as a reaction is, and kept in the log; the line
      // names them, so the bubble does not start with their name as well.
      table.say(event.seat, hintNews(next, event.seat), 6000, { named: false });
      narrate(hintNews(next, event.seat));
    } else if (event.type === "reconnecting" && event.seat !== me) {
      narrate(`${nameOf(next, event.seat)} lost their connection: their seat is kept while they reconnect.`);
    } else if (event.type === "reconnected" && event.seat !== me) {
      narrate(`${nameOf(next, event.seat)} is connected again.`);
    } else if (event.type === "ready" && event.seat !== me) {
      narrate(`${nameOf(next, event.seat)} is ready for the next round.`);
    } else if (event.type === "rematch" && next.phase === "game-over") {
      // Whoever asked is on their way there; the others are told (the panel says it too).
      narrate("A rematch is set up at this table: join it to take your seat.");
    }
  }
}

let lastReaction = 0;

async function react(key) {
  const state = app.state;
  if (!state) return;
  // The server takes one reaction per 2 s from a seat; the page waits as long.
  if (Date.now() - lastReaction < 2000) {
    say("One reaction at a time: try again in a moment.", true);
    return;
  }
  lastReaction = Date.now();
  table.say(state.view.seat, reactionText(app.options.reactions, key), 2500);
  try {
    await api.react(state.id, key);
  } catch (error) {
    say(error.message, true);
  }
}

/** The Pass button's words: "Pass 3", then where they go (which a phone held sideways at
 * large text leaves to the line over the table: the whole label covered the person's own). */
function passWords(state) {
  const [what, ...where] = passLabel(state, (name) => h("span", { class: "who", dir: "auto" }, name));
  const side = where.pop();
  return [what, h("span", { class: "pass-to" }, where, h("span", { class: "pass-side" }, side))];
}

/** "Pass 3 to Marisol" without ", on your left" where the whole took two lines (667 x 375 at a
 * table of friends, React beside it): the line over the table says where they go, and the
 * button's label says it all. Measured whole each time, as the room changes. */
function fitPass() {
  const button = ui.actions.querySelector("[data-action=pass]");
  if (!button) return;
  button.classList.remove("short");
  const words = document.createRange();
  words.selectNodeContents(button);
  const line = parseFloat(getComputedStyle(button).fontSize) * 2;
  if (words.getBoundingClientRect().height > line) button.classList.add("short");
}

/** Tries of a held move after which the page stops trying by itself (about four minutes). */
const HELD_TRIES = 20;

/** Whether a move that failed with `error` is worth holding: it never reached the server, or
 * the server (its database away, or a proxy's own page while it restarts) did not take it. */
function notAnswered(error) {
  return error instanceof Refused && [0, 502, 503, 504].includes(error.status);
}

/** A card ({card}), pass ({pass: true}), Ready ({next: true}) or moon choice ({moon}) that
 * could not go: kept and
 * sent by `sendHeld`, once the device is back online, or after a wait of 2, 4, 8, then 15 s
 * (`tries` failed so far); choosing again meanwhile replaces it. */
function hold(move, tries = 0) {
  const state = app.state;
  const ready = isFriends(state) ? "your \u201cready\u201d goes" : "the next round is dealt";
  const what = move.card ? `your ${cardName(move.card)} goes` : move.pass ? "your pass goes"
    : move.moon ? "your choice goes" : ready;
  const offline = navigator.onLine === false;
  const trying = offline || tries < HELD_TRIES;
  const line = offline ? `This device is offline: ${what} as soon as it is back online.`
    : trying ? `The game server is not answering just now: ${what} as soon as it does.`
      : UNREACHABLE;
  clearTimeout(app.heldTimer);
  app.held = trying ? { ...move, id: state.id, move: state.move, round: state.view.hand_number, line, tries } : null;
  say(line, true);
  if (trying && !offline) app.heldTimer = setTimeout(sendHeld, Math.min(15, 2 ** (tries + 1)) * 1000);
}

/** The table read again after the device came back online or a held move's wait, and the
 * line saying the server cannot be reached gone (it stayed until the next tap). A card or
 * pass held then goes, if the game still waits for it: a card only at the move it was
 * chosen at (it may have reached the server before the line went), a pass while it is still
 * this seat's to make this round (others at the table may have passed meanwhile). */
async function sendHeld() {
  clearTimeout(app.heldTimer);
  if (!app.state || document.body.dataset.screen !== "table") return;
  const held = app.held;
  if (app.busy) {
    if (held) app.heldTimer = setTimeout(sendHeld, 1000); // the table is showing moves
    return;
  }
  app.held = null;
  try {
    const state = await api.game(app.state.id);
    await serial(() => ingest(state));
    if ([UNREACHABLE, OFFLINE, GONE_OFFLINE, held?.line].includes(ui.status.textContent)) say("");
    if (!app.busy) render(app.state);
  } catch {
    if (held) hold(held, held.tries + 1); // still away: the move stays, tried again later
    return;
  }
  const state = app.state;
  if (!held || held.id !== state.id || app.busy) return;
  if (held.moon) {
    // A turn time may have run out meanwhile, and a computer player chosen instead.
    if (held.move === state.move && state.phase === "moon-choice") sendMoon(held.moon, held.tries + 1);
    return;
  }
  if (held.next) {
    // The round may have been dealt meanwhile (the others ready, a turn time run out).
    const waited = !isFriends(state) || state.table.waiting_on.includes(state.view.seat);
    if (held.round === state.view.hand_number && state.phase === "round-over" && waited) {
      sendNext(held.tries + 1);
    }
    return;
  }
  if (held.pass) {
    if (held.round === state.view.hand_number && state.phase === "passing" && state.view.passed === null) {
      sendPass(held.tries + 1);
      return;
    }
    // Made meanwhile by a computer player (the turn time ran out while this device was
    // away): the cards chosen here never went, which the note of the computer's move alone
    // did not say.
    const chosen = [...app.selected].map((key) => key.split("#")[0]).sort();
    const passed = [...(state.view.passed || [])].sort();
    if (held.round === state.view.hand_number && passed.length && passed.join() !== chosen.join()) {
      app.selected = new Set();
      say(`The pass you chose (${chosen.map(cardName).join(", ")}) never went: your time ran out while this device was away.`, true);
      render(state);
    }
    return;
  }
  if (held.move !== state.move) return;
  const button = hand.button(held.card);
  if (button?.dataset.legal === "true") sendPlay(held.card, button, held.tries + 1);
}

/** Take the seat back from the computer player: any request does it. */
async function comeBack() {
  try {
    const state = await api.game(app.state.id);
    await serial(() => ingest(state));
  } catch (error) {
    say(error.message, true);
  }
}

async function rematch() {
  if (app.busy) return;
  setBusy(true);
  try {
    const state = await api.rematch(app.state.id);
    setBusy(false);
    enter(state);
    // Joined late, the rematch may be over already: its own final panel looked like the
    // first game's with other numbers, and nothing said which it was.
    if (state.phase === "game-over") say("This rematch is over already: this is how it ended.", true);
  } catch (error) {
    say(error.message, true);
  } finally {
    setBusy(false);
  }
}

/** Say that this browser sits at the table already, as `name` (in the lobby, else on the
 * status line). */
function alreadySeated(state, name) {
  const words = `You're already at this table as ${named(name)}.`;
  narrate(words);
  if (document.body.dataset.screen === "lobby") {
    app.lobbyNews = words;
    showLobby(state);
  } else {
    say(words, true);
  }
}

/** How often an open join page asks the table again: another friend may have taken the
 * seat it names, or the host started. It also asks when the page comes back into sight. */
const INVITATION_AGAIN_MS = 15000;
let stopAskingInvitation = () => {};

/** Ask for the invitation every INVITATION_AGAIN_MS, and when the page comes into sight,
 * while the join page is shown; onNews(invitation) with each answer. A failed ask is let
 * be: the next one, or Join, says what is wrong. */
function askInvitationAgain(id, invite, onNews) {
  stopAskingInvitation();
  let stopped = false;
  let asking = false;
  const ask = async () => {
    if (document.body.dataset.screen !== "join") return stopAskingInvitation();
    if (asking || document.visibilityState !== "visible") return;
    asking = true;
    try {
      const now = await api.invitation(id, invite);
      if (!stopped && document.body.dataset.screen === "join") onNews(now);
    } catch {
      // Said by the next ask that gets through, or by Join.
    } finally {
      asking = false;
    }
  };
  const timer = setInterval(ask, INVITATION_AGAIN_MS);
  document.addEventListener("visibilitychange", ask);
  stopAskingInvitation = () => {
    stopped = true;
    clearInterval(timer);
    document.removeEventListener("visibilitychange", ask);
  };
}

/** A link from a friend: /?table=ID#invite=TOKEN. A browser already seated there goes to
 * its seat; any other is shown the table and asked for a name. */
async function openTableLink(id, invite) {
  stopAskingInvitation();
  const noTable = (message) => {
    renderNoTable(ui.setup, message);
    showScreen("setup");
  };
  // Asked first, so that a friend's first visit asks for nothing it is refused; a link
  // the table no longer knows may still be a seated browser's way back.
  let invitation = null;
  let problem = "This table is not yours, or it has ended. Ask the host for the invite link.";
  try {
    if (invite) invitation = await api.invitation(id, invite);
  } catch (error) {
    if (!(error instanceof Refused) || error.status !== 404) return noTable(error.message);
    problem = error.message;
  }
  if (!invitation || invitation.yours) {
    try {
      enter(await api.game(id));
    } catch (error) {
      noTable(error instanceof Refused && error.status === 404 ? problem : error.message);
    }
    return;
  }
  if (invitation.closed) return noTable(invitation.closed);
  let joining = false;
  const join = async (name) => {
    let state;
    joining = true;
    try {
      state = await api.join(id, invite, name);
    } catch (error) {
      if (!(error instanceof Refused) || error.status !== 409) throw error;
      // The table changed while this page was open (a seat taken, a name taken, a start):
      // shown again as it is now, the name's problem under the box.
      const now = await api.invitation(id, invite).catch(() => null);
      if (!now) throw error;
      if (now.closed) {
        stopAskingInvitation();
        return noTable(now.closed);
      }
      update = renderJoin(ui.setup, { name, invitation: now, onJoin: join, nameIssue: error.message });
      return;
    } finally {
      joining = false;
    }
    stopAskingInvitation();
    // Another tab of this browser took a seat here first: this one comes to that seat, by
    // the name given there, not the one typed here; said, not dropped unsaid.
    const seatedAs = state.players[state.view.seat]?.name;
    if (seatedAs && seatedAs !== name) {
      enter(state);
      alreadySeated(state, seatedAs);
      return;
    }
    app.prefs.friends = { ...(app.prefs.friends || {}), name };
    savePrefs(app.prefs);
    enter(state);
  };
  let update = renderJoin(ui.setup, { name: app.prefs.friends?.name || "", invitation, onJoin: join });
  // The page names a seat and the people seated: kept true while it waits for a name.
  askInvitationAgain(id, invite, (now) => {
    if (joining) return; // Join's own answer says what happened
    if (now.yours || now.closed) {
      openTableLink(id, invite); // seated from another tab: its seat; closed: why
      return;
    }
    update(now);
  });
  document.body.dataset.screen = "join";
  ui.setup.hidden = false;
  ui.root.hidden = true;
  ui.lobby.hidden = true;
}

// --- drawing the table ---------------------------------------------------------------

function phaseOf(state) {
  return state.phase === "moon-choice" ? "round-over" : state.phase;
}

/** The cards passed to the person, one entry per card (with two decks both copies of a
 * face may be in hand, and only as many are marked as came in). */
function receivedCards(state) {
  const view = state.view;
  if (!view.received || view.phase !== "playing") return [];
  const mine = ([seat]) => isMe(state, seat);
  const played = view.tricks.some((t) => t.plays.some(mine)) || view.trick.some(mine);
  if (played || isDismissed(state.id, view.hand_number)) return [];
  return [...view.received];
}

let goneTimer = null;

/** A friend's closed page is said once it has stayed closed a while (`noteClosed`): the
 * table is drawn again then, if nothing else has drawn it meanwhile. */
function watchClosed(state) {
  clearTimeout(goneTimer);
  const due = isFriends(state) ? noteClosed(state) : null;
  if (due === null) return;
  goneTimer = setTimeout(redrawSigns, due + 50);
}

function render(state, { waiting = false } = {}) {
  const view = state.view;
  const { me } = seating(state);
  noteDeal(state);
  watchClosed(state);
  ui.root.dataset.phase = phaseOf(state);
  ui.root.dataset.move = state.move; // the move shown (a hook for tests of the live table)
  ui.root.dataset.game = state.id; // and the game (a hook for tests that switch games)
  ui.roundNumber.textContent = roundTitle(view.hand_number);
  // Over, the header says so instead of the last round's pass.
  const over = state.phase === "game-over";
  // A table that never passes says so, not "Keep round" round after round.
  const never = neverPasses(view.rules);
  ui.roundPass.textContent = over ? "Game over" : never ? "No passing" : directionShort(view.pass_direction);
  ui.roundPass.title = over ? "" : never ? "No passing at this table" : directionPhrase(view.pass_direction);
  const myTurn = !waiting && state.phase === "playing" && view.turn === me;
  table.renderSeats({
    state,
    pointsTaken: view.points_taken,
    handSizes: view.hand_sizes,
    turn: waiting ? null : view.turn,
    showPoints: app.prefs.showPoints,
    taken: takenSummary(state),
  });
  table.showTrick(view.trick);
  table.setHearts(view.hearts_broken);
  table.setHeld(view.held_over);
  table.setKitty(state);
  table.setTeams(state);
  ui.tricks.hidden = !(view.tricks.length > 0 && state.phase === "playing");
  const passing = !waiting && state.phase === "passing" && view.waiting_to_pass.includes(me);
  // The person's pass was made elsewhere (their turn time ran out and a computer player
  // passed for them, or another tab of theirs passed): the cards ticked here stayed ticked
  // and lifted all through the play.
  if (app.selected.size && !waiting && (state.phase !== "passing" || view.passed !== null)) {
    app.selected = new Set();
  }
  const received = receivedCards(state);
  hand.render({
    cards: view.hand,
    mode: passing ? "pass" : myTurn ? "play" : "wait",
    legal: new Set(view.legal),
    reasons: state.reasons || {},
    selected: app.selected,
    received,
    tags: passing ? scatterTags(state) : new Map(),
    givers: giverTags(state, received),
  });
  drawActions(state, { passing, myTurn, received, waiting });
  drawFriends(state);
  drawOverlay(state, waiting);
  renderHint(state, passing || myTurn);
  renderUndo(state, passing || myTurn);
  if (passing || myTurn) keepHandInSight();
  const active = document.activeElement;
  if (myTurn && !app.busy && (!active || active === document.body || active === hand.root)) {
    hand.focusFirst((card) => view.legal.includes(card));
  }
  if (myTurn && !app.busy) autoPlay(state);
}

/** The person's cards in sight on a phone held sideways when they have a move to make and no
 * panel is open over the table. (Upright, the page scrolls as a page does: the hand is under
 * the table, as a person expects it there.) */
function keepHandInSight() {
  const mode = hand.root.dataset.mode;
  if (SIDEWAYS.matches && document.body.dataset.screen === "table" && ui.overlay.hidden
    && (mode === "play" || mode === "pass")) {
    hand.keepInSight();
  }
}

/** A scatter sends each chosen card to its own player, in the order chosen: key -> name. */
function scatterTags(state) {
  const to = state.view.pass_to;
  if (to.length < 2) return new Map();
  return new Map([...app.selected].map((key, i) => [key, nameOf(state, to[i])]));
}

/** Who gave each card a scatter brought (several givers; one giver is said in the note),
 * keyed as the hand keys copies ("QS", then "QS#2"). */
function giverTags(state, received) {
  const from = state.view.received_from || [];
  if (!received.length || new Set(from).size < 2) return new Map();
  const seen = {};
  return new Map(state.view.received.map((card, i) => {
    const copy = (seen[card] = (seen[card] || 0) + 1);
    return [copy > 1 ? `${card}#${copy}` : card, nameOf(state, from[i])];
  }));
}

/** The cards passed to the person, named over the table: "Tamsin passed you A♣, K♦ and
 * Q♥", or for a scatter "Passed to you: A♣ from Marisol, …". Named, not "marked in your
 * hand": the marks go with the person's first card, which "Play my only card" may play at
 * once, and the line said "marked" over no marks. */
function passedLine(state, received, givers = []) {
  const from = passedFrom(state);
  if (from === undefined && new Set(givers).size > 1) {
    return `Passed to you: ${listed(received.map((card, i) => `${cardSymbol(card)} from ${nameOf(state, givers[i])}`))}.`;
  }
  const who = from !== undefined ? nameOf(state, from) : "The others";
  return `${who} passed you ${listed(sortCards(received).map(cardSymbol))}.`;
}

/** With "play the only card" on, a turn with one legal card plays itself. */
function autoPlay(state) {
  const legal = state.view.legal;
  if (!app.prefs.autoPlay || legal.length !== 1 || app.autoPlayed === state.move) return;
  app.autoPlayed = state.move;
  say(`Your only card: the ${cardName(legal[0])}.`);
  setTimeout(() => {
    // The same move still: at a table of friends a reaction or a seat's news brings the same
    // move anew meanwhile, and the card, said to play itself, stayed in hand.
    if (app.state?.id !== state.id || app.state.move !== state.move || app.busy) return;
    const button = hand.button(legal[0]);
    if (button) sendPlay(legal[0], button);
  }, Math.max(300, timing(app.prefs).fly));
}

function drawActions(state, { passing, myTurn, received, waiting }) {
  const view = state.view;
  const parts = [];
  if (passing) {
    const need = view.cards_to_pass;
    const left = need - app.selected.size;
    parts.push(h("button", {
      // aria-disabled, not disabled: a dimmed Pass stays in the Tab order, and pressed says
      // what is missing, as a dimmed card says why it cannot go.
      type: "button", class: "primary", "data-action": "pass", "aria-disabled": left !== 0 ? "true" : "false",
      onclick: () => {
        const missing = need - app.selected.size;
        if (missing > 0) say(`Choose ${plural(missing, "more card")} to pass first.`);
        else sendPass();
      },
      // Said whole: the cut-short name's box read as "Pass 3 to Marisol , on your left".
      "aria-label": passLabel(state).join(""),
    }, passWords(state)));
  } else if (state.phase === "playing" && received.length) {
    const from = passedFrom(state);
    const who = from !== undefined ? nameOf(state, from) : "the others";
    const each = from === undefined && new Set(state.view.received_from || []).size > 1;
    parts.push(h("span", { class: "hint received-note" },
      h("span", { class: "dot", "aria-hidden": "true" }),
      each ? "Marked: passed to you, each with its giver's name." : `Marked: passed to you by ${who}.`));
    parts.push(h("button", {
      type: "button", class: "quiet", "data-action": "dismiss",
      // Held sideways the note beside it is left out for room: the button says it itself.
      title: "Unmark the cards passed to you", "aria-label": "Unmark the cards passed to you",
      onclick: () => { dismiss(state.id, view.hand_number); render(app.state); },
    }, "Unmark"));
  }
  clear(ui.actions, waiting ? [] : parts);
  fitPass();
  if (waiting) return;
  if (passing) {
    const left = view.cards_to_pass - app.selected.size;
    if (!ui.status.dataset.keep) {
      say(left === view.cards_to_pass ? `Choose ${plural(left, "card")} to pass.`
        : left > 0 ? `Choose ${plural(left, "more card")}.` : "Ready: press Pass.");
    }
    const to = view.pass_to.map((seat) => nameOf(state, seat));
    const where = to.length > 1
      ? `the first card you choose goes to ${to[0]}, then ${listed(to.slice(1))}, in that order`
      : `your cards go to ${to[0]}`;
    table.setMessage(`${directionPhrase(view.pass_direction)}: ${where}. You get yours once everyone has passed.`);
  } else if (myTurn) {
    const lead = view.trick.length === 0;
    if (!ui.status.dataset.keep) say(lead ? "Your lead." : "Your turn.");
  } else if (!ui.status.dataset.keep && isFriends(state) && state.phase === "passing") {
    // Computer players pass once every person has: the people are the ones waited for.
    const names = view.waiting_to_pass.filter((seat) => state.players[seat].person)
      .map((seat) => nameOf(state, seat));
    say(names.length ? `Waiting for ${listed(names)} to pass.` : "");
  } else if (!ui.status.dataset.keep && state.phase !== "playing") {
    say("");
  } else if (!ui.status.dataset.keep && isFriends(state)) {
    // Another person's turn: say whose, so a wait never looks like a stuck page.
    const turn = view.turn;
    if (turn === null || turn === undefined) say("");
    else sayTurnSoon(seatGone(state, turn) ? goneTurnLine(state, turn) : `${nameOf(state, turn)} to play.`);
  }
  if (state.phase === "playing" && !received.length) {
    const hold = view.pass_direction === "hold" && view.tricks.length === 0;
    const keep = neverPasses(view.rules) ? NO_PASSING : "A keep round: everyone plays the cards dealt.";
    table.setMessage(hold ? keep : lastTrickLine(state));
  } else if (state.phase === "playing") {
    // The marks are shown: the line names the cards (after an Undo back to before the
    // person's first card it still told of a trick taken since).
    table.setMessage(passedLine(state, view.received, view.received_from || []));
  }
}

/** At a table with friends: the turn timer, the reactions bar, and "I'm back" when a
 * computer player has been playing for the person. */
function drawFriends(state) {
  const friends = isFriends(state);
  clock.set(friends ? state : null);
  ui.root.dataset.friends = friends ? "true" : "false";
  if (friends && !ui.reactions.childElementCount && app.options.reactions?.length) {
    ui.reactions.append(reactionBar(app.options.reactions, react));
  }
  ui.reactions.hidden = !friends;
  const away = friends && state.players[state.view.seat].away;
  let note = ui.root.querySelector("[data-region=away-note]");
  if (away && !note) {
    note = h("p", { class: "away-note", "data-region": "away-note" },
      "You were away: a computer player is playing for you. ",
      h("button", { type: "button", class: "primary", "data-action": "back", onclick: comeBack }, "I'm back"));
    ui.actions.before(note);
  } else if (!away && note) {
    note.remove();
  }
  standInNote(state, friends && !away ? state.table.stood_in : 0, state.table?.pass_stood_in);
}

/** What a computer player did for the person (a move whose time ran out, or all of them
 * while away: a rematch joined late, a page reopened), said over the table until the trick
 * on it is over. */
function standInNote(state, count, passed) {
  const view = state.view;
  if (!count || (state.phase !== "passing" && state.phase !== "playing")) return;
  const key = standInKey(state, count);
  const moves = count === 1 ? "one of your moves" : `${count} of your moves`;
  // The pass it made says which cards went: the person never chose them.
  const gave = passed && view.passed ? ` (it passed the ${listed(view.passed.map(cardName))})` : "";
  const words = `A computer player made ${moves} this round${gave}, when your time ran out or you were away.`;
  if (app.standIn?.key !== key) {
    app.standIn = { key, trick: view.tricks.length };
    narrate(words);
  }
  if (app.standIn.trick === view.tricks.length) table.setMessage(app.standIn.words || words);
}

/** The round's moves made for the person so far, as `standInNote` keeps track of them. */
function standInKey(state, count) {
  return `${state.id}:${state.view.hand_number}:${count}`;
}

function drawOverlay(state, waiting) {
  const content = waiting ? null : overlayPanel(state, app.options.opponents, {
    moon: sendMoon, next: () => sendNext(), again: startGame, setup: showSetup, rematch,
  }, { playedItself: app.playedItself === `${state.id}:${state.view.hand_number}` });
  // The same panel drawn again (a friend's news at the round's end): it stays where the
  // person scrolled it, and the focus stays where it was.
  const shown = content ? `${state.id} ${state.move} ${state.phase}` : "";
  const again = shown && ui.overlay.dataset.shown === shown;
  const scrolled = ui.overlay.scrollTop;
  const inPanel = again && ui.overlay.contains(document.activeElement);
  const focused = inPanel ? document.activeElement.dataset.action : null;
  ui.overlay.dataset.shown = shown;
  showOverlay(content);
  sayOnPanel();
  ui.skip.hidden = Boolean(content) || !state.view.hand.length;
  if (again) {
    ui.overlay.scrollTop = scrolled;
    const same = focused && ui.overlay.querySelector(`[data-action="${CSS.escape(focused)}"]`);
    if (same) same.focus({ preventScroll: true });
    // The control the person was on has gone ("Rematch" became "Join the rematch"): the
    // panel's way on has the keyboard, not the page's body.
    else if (inPanel) focusFirstButton();
  } else if (content) {
    // Another panel opens at its top (the game's end kept the last round's panel's scroll,
    // its winner and standings above the screen).
    ui.overlay.scrollTop = 0;
    focusFirstButton();
  }
}

/** The control the person used has gone (a card played, a button the next state has no
 * use for): the keyboard stays at the table (the panel's way on, else the hand) instead of
 * falling to the page's body, where a screen reader says nothing. */
function keepFocus() {
  if (document.body.dataset.screen !== "table") return;
  const active = document.activeElement;
  const gone = !active || active === document.body || !active.isConnected || active.closest("[inert]")
    || !active.getClientRects().length; // hidden with its screen: the browser lets it go soon
  if (!gone) return;
  if (!ui.overlay.hidden) focusFirstButton();
  else ui.hand.focus({ preventScroll: true });
}

/** Show a panel over the table (or none): the table behind it is out of reach, the
 * keyboard's too, as it is out of sight. A panel taken away with the keyboard on it (the
 * next round dealt) leaves the keyboard at the hand. */
function showOverlay(content) {
  const had = ui.overlay.contains(document.activeElement);
  ui.overlay.hidden = !content;
  for (const part of ui.root.children) {
    if (part !== ui.overlay && part !== ui.log) part.inert = Boolean(content);
  }
  clear(ui.overlay, content);
  if (had && !content) ui.hand.focus({ preventScroll: true });
  // The round's table fills the panel, and scrolls only when it is wider (large text, a
  // narrow phone; as a block it would not fill the panel's width).
  for (const table of ui.overlay.querySelectorAll("table.round-table")) {
    const box = table.parentElement;
    const style = getComputedStyle(box);
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    table.classList.toggle("wide", table.offsetWidth > room + 1);
  }
  // A table wider than the panel scrolls: the keyboard can reach it and scroll it with the
  // arrow keys.
  for (const wide of ui.overlay.querySelectorAll("table.summary, .sheet-scroll")) {
    if (wide.scrollWidth > wide.clientWidth + 1) {
      wide.tabIndex = 0; // a table is named by its caption; a box around one, here
      if (wide.tagName !== "TABLE") wide.setAttribute("aria-label", "Scores, scrolling sideways");
      // The arrows scroll it (Chromium leaves a focused table where it is).
      wide.addEventListener("keydown", (event) => {
        const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
        if (!step) return;
        event.preventDefault();
        wide.scrollBy({ left: step * 40 });
      });
    }
  }
}

/** The panel's way on, or its heading when it has none (another's moon to choose). */
function focusFirstButton() {
  const target = ui.overlay.querySelector("button.primary") || ui.overlay.querySelector("h2[tabindex]");
  if (target) target.focus({ preventScroll: true });
}

// --- the person's moves --------------------------------------------------------------

const CHOSEN = "hearts.chosen"; // the cards chosen for a pass not sent yet, for a reload

/** Keep the cards chosen for this pass in this tab, in the order chosen (a scatter's). */
function keepChosen(state) {
  try {
    sessionStorage.setItem(CHOSEN, JSON.stringify({ id: state.id, move: state.move, keys: [...app.selected] }));
  } catch {
    // No storage: a reload starts the choice again.
  }
}

/** The cards chosen before a reload, if they are for this very pass and still in hand. */
function chosenBefore(state) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(CHOSEN) || "null");
    const hand = new Set(state.view.hand);
    const ok = kept && kept.id === state.id && kept.move === state.move && state.phase === "passing"
      && state.view.passed === null && Array.isArray(kept.keys)
      && kept.keys.length <= state.view.cards_to_pass
      && kept.keys.every((key) => typeof key === "string" && hand.has(key.split("#")[0]));
    return new Set(ok ? kept.keys : []);
  } catch {
    return new Set();
  }
}

function onCard(card, button, key = card) {
  const state = app.state;
  if (!state) return;
  if (app.busy) {
    // A card pressed while cards are on their way is refused out loud, not in silence.
    say("Wait for your turn.");
    return;
  }
  const mode = hand.root.dataset.mode;
  if (mode === "pass") {
    const need = state.view.cards_to_pass;
    if (app.selected.has(key)) app.selected.delete(key);
    else if (app.selected.size < need) app.selected.add(key);
    else {
      // Said for the way the person chooses: "tap" read wrong to one who uses the keys.
      const how = document.documentElement.dataset.input === "keys" ? "press Enter on" : "tap";
      say(`${need} chosen: ${how} one to put it back.`, true);
      return;
    }
    keepChosen(state);
    say("");
    render(state);
    return;
  }
  if (mode === "play") {
    if (button.dataset.legal === "true") {
      if (navigator.onLine === false) hold({ card });
      else sendPlay(card, button);
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

/** Pass the chosen cards; `tries`: how many times this pass has failed already (held). */
async function sendPass(tries = 0) {
  const state = app.state;
  if (app.busy || app.selected.size !== state.view.cards_to_pass) return;
  if (navigator.onLine === false) {
    hold({ pass: true });
    return;
  }
  setBusy(true);
  // Selected copies are keyed "QS" and "QS#2"; the server takes faces.
  const cards = [...app.selected].map((key) => key.split("#")[0]);
  say("");
  putHintAway();
  // The pass is on its way: the button goes, so nothing looks pressable while others play.
  clear(ui.actions);
  hand.focusRegion();
  try {
    await serial(async () => {
      const next = await passAtMove(cards);
      app.selected = new Set();
      narrate(`You passed ${cards.map(cardName).join(", ")}.`);
      await ingest(next);
    });
  } catch (error) {
    await recover(error);
    if (notAnswered(error) && app.state?.move === state.move) hold({ pass: true }, tries);
  } finally {
    setBusy(false);
    render(app.state);
    keepFocus();
  }
}

/** Send the pass at the move shown. At a table with people everyone passes at once, so
 * another's pass may move the count on first: then the pass goes again at the new count
 * (it is still this seat's to make), instead of losing the chosen cards to a refusal. */
async function passAtMove(cards) {
  for (let tries = 0; ; tries += 1) {
    try {
      return await api.pass(app.state, cards);
    } catch (error) {
      const now = error instanceof Refused && error.status === 409 ? error.body?.state : null;
      const mine = now && isFriends(now) && now.phase === "passing" && now.id === app.state.id
        && now.view.waiting_to_pass.includes(now.view.seat) && now.move > app.state.move;
      if (!mine || tries >= 3) throw error;
      await ingest(now);
    }
  }
}

/** Play `card` (its `button` in the hand); `tries`: as for `sendPass`. */
async function sendPlay(card, button, tries = 0) {
  const state = app.state;
  if (app.busy) return;
  // Every read of where things are comes before the page changes or after all of it has: a
  // read between two changes has the browser lay the page out there and then (on a slow
  // phone four such layouts were half of a tap's time before its card was on the table).
  const from = button.getBoundingClientRect();
  setBusy(true);
  // The card goes down at once; the server's answer follows. The hand first, as its own
  // reads come before its changes.
  const inHand = state.view.hand.slice();
  inHand.splice(inHand.indexOf(card), 1); // one copy goes, even with two decks
  hand.render({ cards: inHand, mode: "wait" });
  say("");
  putHintAway();
  undoNamesCard();
  const placed = table.place(state.view.seat, card, state.view.trick.length === 0);
  sound("card");
  keepFocus(); // its read lays the page out once, for the flight's read as well
  const t = timing(app.prefs);
  const flight = flyFrom(placed, from, t.fly);
  try {
    await serial(async () => {
      const next = await api.play(state, card, app.prefs.finishSettled !== false);
      await flight;
      await ingest(next, { skipOwn: true });
    });
  } catch (error) {
    await recover(error);
    if (notAnswered(error) && app.state?.move === state.move) hold({ card }, tries);
  } finally {
    setBusy(false);
    render(app.state);
    keepFocus();
  }
}

/** Undo: the table as it stood before the person's latest pass or card of this round.
 * Pressed while the others' cards come in, it is done once they have been shown (`waited`),
 * and then asked of the server even if the round has ended meanwhile: its refusal says why
 * nothing can be taken back. */
async function sendUndo(waited = false) {
  const state = app.state;
  // A second press while a take-back is on its way is the same press (a double tap took
  // back two moves once presses were kept for later).
  if (!state?.undo?.allowed || app.undoing) return;
  if (whenStill("undo", () => sendUndo(true))) {
    say(undoComingWords(), true);
    return;
  }
  if (state.undo.to === null && !waited) return;
  setBusy(true);
  app.undoing = true;
  try {
    await serial(async () => {
      const next = await api.undo(state);
      app.selected = new Set();
      app.state = next; // an earlier move than shown: drawn as it stands, nothing animated
      say(undoneWords(state), true); // the status line is read out: not the log as well
    });
  } catch (error) {
    await recover(error);
  } finally {
    app.undoing = false;
    setBusy(false);
    render(app.state);
    keepFocus();
  }
}

/** Deal the next round, or at a table of friends say this person is ready; `tries`: how
 * many times it has failed already (held, as a card is, while the device is offline). */
async function sendNext(tries = 0) {
  if (app.busy) return;
  if (navigator.onLine === false) {
    hold({ next: true }, tries);
    return;
  }
  await simpleMove((s) => api.next(s), { clearTable: true, held: { next: true }, tries });
}

/** The shooter's choice of how the moon scores ("add" or "subtract"); held, as a card is,
 * while the device is offline (`tries`: how many times it has failed already). */
async function sendMoon(choice, tries = 0) {
  if (app.busy) return;
  if (navigator.onLine === false) {
    hold({ moon: choice }, tries);
    return;
  }
  await simpleMove((s) => api.moon(s, choice), { held: { moon: choice }, tries });
}

/** A move from a panel. `held`: the move to keep and send again (`hold`) if the server did
 * not take it, `tries` times so far; any other failure is said and the game read again. */
async function simpleMove(request, { clearTable = false, held = null, tries = 0 } = {}) {
  if (app.busy) return;
  const state = app.state;
  setBusy(true);
  try {
    await serial(async () => {
      const next = await request(app.state);
      if (next.move === app.state.move && !next.events.length) {
        app.state = next; // noted, nothing moved (ready for the next round, others not yet)
        return;
      }
      if (clearTable) {
        app.selected = new Set();
        table.clearTrick();
      }
      showOverlay(null);
      render({ ...next }, { waiting: true });
      const deal = next.events.findIndex((e) => e.type === "deal");
      if (deal < 0) {
        await showEvents(next, { fromView: null });
        app.state = next;
      } else {
        await ingest(next);
      }
    });
  } catch (error) {
    if (held && notAnswered(error) && app.state?.move === state.move) hold(held, tries);
    else await recover(error);
  } finally {
    setBusy(false);
    render(app.state);
    keepFocus();
  }
}

/** After a refusal: say why, and if the game moved on elsewhere, load it as it is now. */
async function recover(error) {
  const message = error instanceof Refused ? error.message : "Something went wrong; please try again.";
  // At a table with people a 409 with the game attached is mostly a race lost to another
  // person (both dealt the next round): the game as it stands says enough.
  const raced = error instanceof Refused && error.status === 409 && isFriends(error.body?.state);
  say(raced ? "" : message, !raced);
  if (!(error instanceof Refused) || !app.state) return;
  if (error.status === 409 && error.body?.state) {
    // The game moved on (another tab, a lost answer): catch up from the state sent back.
    app.state = error.body.state;
    app.selected = new Set();
  } else if (error.status === 409 || error.status === 0) {
    // The stream goes on while the game is asked for (a request lost on its way, the stream
    // still open): what it brought meanwhile stays, unless the answer is newer. The answer
    // put the page back to the moves before them (a friend's pass shown, then gone).
    const before = app.state;
    try {
      const now = await api.game(before.id);
      if (app.state === before || (app.state?.id === now.id && now.move > app.state.move)) app.state = now;
    } catch {
      // Keep the state we have; the message already says what is wrong.
    }
  }
}

/** "Tap to continue": wait for the person before a finished trick leaves the table. */
function tapToContinue() {
  return new Promise((resolve) => {
    const button = h("button", {
      type: "button", class: "primary", "data-action": "continue-trick",
      onclick: () => { clear(ui.actions); keepFocus(); resolve(); },
    }, "Continue");
    clear(ui.actions, button);
    button.focus({ preventScroll: true });
  });
}

// --- showing what happened -------------------------------------------------------------

async function showEvents(next, { fromView, skipOwnPlay = false }) {
  let t = timing(app.prefs);
  const count = next.view.players;
  const me = next.view.seat;
  const base = fromView || next.view;
  let trick = fromView ? fromView.trick.slice() : [];
  const pointsTaken = fromView ? fromView.points_taken.slice() : next.view.points_taken.map(() => 0);
  const sizes = fromView ? fromView.hand_sizes.slice() : next.view.hand_sizes.slice();
  let settled = false;
  let finishing = false; // settled with a trick on the table: shown whole, then the rest at once
  if (!fromView) {
    // A fresh round: the cards played in these events were still in hand when it began.
    for (const event of next.events) {
      if (event.type === "deal") sizes.splice(0, sizes.length, ...next.view.hand_sizes);
      if (event.type === "play") sizes[event.seat] += 1;
    }
  }
  // What each seat has taken, as the tricks go: the marks beside the points stay in step
  // (left out, they went at each card and came back once the moves had been shown).
  const won = fromView ? wonCards({ ...next, view: fromView }) : next.players.map(() => []);
  const seats = (turn) => table.renderSeats({
    state: next, pointsTaken, handSizes: sizes, turn, showPoints: app.prefs.showPoints,
    taken: summarize(won, bonusCard(next)),
  });
  // After a card the next seat plays, unless the trick is full: then nobody until its winner leads.
  const after = (seat) => seats(trick.length === count ? null : (seat + 1) % count);
  if (!next.events.length) return;
  ui.root.dataset.animating = "true";
  clear(ui.actions);
  // The hand as it ends up (after any exchange), with nothing playable while others move.
  hand.render({ cards: next.view.hand, mode: "wait", received: receivedCards(next) });
  if (skipOwnPlay) sizes[me] = base.hand_sizes[me] - 1;
  for (const event of next.events) {
    if (event.type === "play") {
      if (event.seat === me && skipOwnPlay) {
        skipOwnPlay = false;
        trick.push([me, event.card]);
        after(me); // the person's own card: the ring leaves the person here too
        continue;
      }
      if (event.seat === me && !settled && !event.stand_in && !isFriends(next)) {
        // The server played the person's card in a game against computer players: no point
        // could change hands any more ("Finish a decided round"). Said on the round's panel
        // when cards were left to play (a last card is always played so). At a table of
        // friends it never does that: a card played there for the person is a computer
        // player's when their time ran out (marked stand_in), or theirs from another tab, and
        // the round goes on as ever (it said "the rest of the round plays itself" and went
        // quiet for the cards after).
        settled = true;
        if (sizes[me] > 1) app.playedItself = `${next.id}:${next.view.hand_number}`;
        // A trick begun is seen to its end, at the usual pace, who took it and all (it went
        // by in 3 ms); the tricks after it play themselves at once.
        if (trick.length === 0 || trick.length === count) t = { fly: 0, pause: 0 };
        else finishing = true;
        const line = "No point can change hands now: the rest of the round plays itself.";
        narrate(line);
        table.setMessage(line);
      }
      if (trick.length === count) trick = [];
      sizes[event.seat] -= 1;
      // The status line said this seat's turn ("Ann to play.", or "Your turn." when the card
      // came from another tab): it has played, and the line goes. Left until every move had
      // been shown, it stood beside the trick's "★ wins" (seven players with friends).
      const turnWords = event.seat === me ? ["Your turn.", "Your lead."]
        : [`${nameOf(next, event.seat)} to play.`, goneTurnLine(next, event.seat)];
      if (!ui.status.dataset.keep && turnWords.includes(ui.status.textContent)) say("");
      const led = trick.length === 0;
      trick.push([event.seat, event.card]);
      seats(event.seat);
      const placed = table.place(event.seat, event.card, led);
      // Once the round plays itself its cards are not read out one by one (two dozen lines
      // ran into the round's end); the round's panel says what came of them.
      if (event.stand_in && event.seat === me) standInCard(next, event.card, led);
      else if (!settled) narrate(playedLine(next, event, led));
      if (!settled) sound(event.card === "QS" ? "queen" : "card");
      // The seat's box is measured only for a flight: measuring forces a layout.
      if (t.fly) await flyFrom(placed, table.seatBox(event.seat), t.fly);
      after(event.seat);
    } else if (event.type === "trick") {
      // A trick held over is nobody's: its event names the leader only as the seat that
      // leads again, and "★ wins" on the leader's cancelled card said the opposite.
      table.markWinner(event.held_over ? null : event.winner);
      const taken = event.points_taken[event.winner] - pointsTaken[event.winner];
      const who = isMe(next, event.winner) ? "You take" : `${nameOf(next, event.winner)} takes`;
      const worth = taken > 0 ? `, ${plural(taken, "point")}` : taken < 0 ? `: ${-taken} points off` : "";
      if (!settled) narrate(`${who} the trick${worth}.`);
      if (event.cancelled.length && !settled) {
        narrate(`Cancelled by their twins: ${event.cancelled.map(cardName).join(", ")}.`);
      }
      if (event.held_over) {
        const line = "Every card of the suit led cancelled: the next trick's winner takes this one too.";
        narrate(line);
        table.setMessage(line);
      } else if (event.carried.length) {
        narrate(`${isMe(next, event.winner) ? "You also take" : `${nameOf(next, event.winner)} also takes`} the ${plural(event.carried.length, "held-over card")}.`);
      }
      if (!isMe(next, event.winner) && event.cards.includes("QS")) {
        const line = quip(event.winner, "queen");
        table.say(event.winner, line);
        // Read out with who says it, as a reaction is: the bubble alone was never heard.
        if (line && !settled) narrate(`${nameOf(next, event.winner)}: ${line}`);
      }
      if (app.prefs.tapToContinue && !settled && t.pause > 0) await tapToContinue();
      else await wait(t.pause);
      const cards = [...ui.root.querySelectorAll("[data-played]")];
      if (t.fly) {
        // "★ wins" goes with the cards, not left under an empty slot while they fly.
        ui.trick.dataset.sweeping = "true";
        await sweepTo(cards, table.seatBox(event.winner), t.fly);
      }
      delete ui.trick.dataset.sweeping;
      if (finishing) {
        finishing = false;
        t = { fly: 0, pause: 0 };
      }
      table.clearTrick();
      table.setHeld(event.held_over ? event.cards.concat(event.carried) : []);
      // Who took it, over the table at once (the line waited for the person's turn, a trick
      // behind while others led on); the rest of a decided round leaves its line alone.
      if (!settled) {
        table.setMessage(lastTrickLine(next, {
          winner: event.winner, plays: event.cards.map((card) => [null, card]),
          carried: event.carried, held_over: event.held_over,
        }));
      }
      trick = [];
      if (!event.held_over) won[event.winner].push(...event.cards, ...event.carried);
      event.points_taken.forEach((p, seat) => { pointsTaken[seat] = p; });
      seats(event.winner);
    } else if (event.type === "kitty") {
      const who = isMe(next, event.seat) ? "You take" : `${nameOf(next, event.seat)} takes`;
      const line = `${who} the kitty: ${event.cards.map(cardName).join(", ")}.`;
      narrate(line);
      table.setMessage(line);
      table.setKitty({ ...next, view: { ...next.view, kitty_taker: event.seat, kitty: event.cards } });
      won[event.seat].push(...event.cards);
      await wait(t.pause);
    } else if (event.type === "hearts-broken") {
      table.setHearts(true);
      narrate("Hearts are broken.");
      if (!settled) sound("hearts");
    } else if (event.type === "exchange") {
      const from = passedFrom(next);
      const who = from !== undefined ? nameOf(next, from) : "The others";
      const givers = event.from || [];
      if (from === undefined && new Set(givers).size > 1) {
        // A scatter: one card from each, said card by card.
        const each = event.received.map((card, i) => `${nameOf(next, givers[i])} the ${cardName(card)}`);
        narrate(`Passed to you: ${listed(each)}.`);
      } else {
        narrate(`${who} passed you ${event.received.map(cardName).join(", ")}.`);
      }
      table.setMessage(passedLine(next, event.received, givers));
      await wait(t.pause);
    } else if (event.type === "moon-choice" && !isMe(next, event.seat)) {
      // The stake as scored: 26 a deck, twice that for a sun.
      const stake = next.view.round_points * (next.results.at(-1)?.sun ? 2 : 1);
      narrate(`${nameOf(next, event.seat)} chose to ${event.choice === "add" ? `give everyone else ${stake}` : `take ${stake} off`}.`);
    } else if (event.type === "round-over" && event.result.shooter !== null) {
      sound("moon");
      if (!isMe(next, event.result.shooter)) {
        const line = quip(event.result.shooter, "moon");
        table.say(event.result.shooter, line);
        if (line) narrate(`${nameOf(next, event.result.shooter)}: ${line}`);
      }
    }
  }
  delete ui.root.dataset.animating;
}

/** Who played a card, as the log reads it: a card a computer player played for a person
 * (their time ran out, or they were away) is said to be its, not theirs ("Bea played the
 * five of clubs" read as if she had chosen it). */
function playedLine(state, event, led) {
  const card = cardName(event.card);
  if (event.stand_in) return `A computer player ${led ? "led" : "played"} the ${card} for ${nameOf(state, event.seat)}.`;
  return `${whoIs(state, event.seat)} played the ${card}${led ? " to lead" : ""}.`;
}

/** A page drawn at once, behind the table, still says the cards a computer player played
 * for a person (the person's own "Time's up" line was lost with the moves it skipped). */
function sayStandIns(state, events) {
  const view = state.view;
  const plays = [...view.tricks.flatMap((trick) => trick.plays), ...view.trick];
  for (const event of events) {
    if (event.type !== "play" || !event.stand_in) continue;
    const at = plays.findIndex(([seat, card]) => seat === event.seat && card === event.card);
    const trick = view.tricks.find((t) => t.plays.some(([, card]) => card === event.card));
    const led = at >= 0 && (trick ? trick.plays[0][1] : view.trick[0]?.[1]) === event.card;
    if (event.seat === view.seat) standInCard(state, event.card, led);
    else narrate(playedLine(state, event, led));
  }
}

/** The person's own card, played for them when their time ran out: said and shown over the
 * table by name, in place of the round's note of moves made for them (`standInNote`) until
 * the trick on the table is over. */
function standInCard(state, card, led) {
  const line = `Time's up: a computer player ${led ? "led" : "played"} your ${cardName(card)} for you.`;
  narrate(line);
  table.setMessage(line);
  const view = state.view;
  app.standIn = { key: standInKey(state, state.table.stood_in), trick: view.tricks.length, words: line };
}

function quip(seat, kind) {
  if (app.state?.players[seat]?.person) return ""; // people speak for themselves
  const character = app.state?.players[seat]?.character;
  const opponent = app.options.opponents.find((o) => o.id === character);
  return opponent ? quipLine(opponent.quips[kind], app.state.view.hand_number, seat) : "";
}

// --- start -------------------------------------------------------------------------------

/** The keyboard's ring shows for the keyboard only. The page moves the focus itself (the
 * first playable card on the person's turn, the hand after a card), and with no key pressed
 * since a reload the browser ringed it: a phone player saw a thick frame round the hand. The
 * page starts without rings; a key brings them back, a tap or a click takes them away. */
function watchInput() {
  const root = document.documentElement;
  root.dataset.input = "pointer"; // until a key is pressed (a reload showed a ring unasked)
  document.addEventListener("pointerdown", () => { root.dataset.input = "pointer"; }, true);
  document.addEventListener("keydown", (event) => {
    if (!event.ctrlKey && !event.metaKey && !event.altKey) root.dataset.input = "keys";
  }, true);
}

async function boot() {
  watchInput();
  applyTheme();
  foldingMenu();
  applyLook();
  if (!emojiShown()) document.body.dataset.emoji = "none";
  hand = new Hand($("[data-region=hand]"), { onCard });
  // The table grows with the text size and turns with the phone: the hand stays in sight.
  new ResizeObserver(() => keepHandInSight()).observe(ui.root);
  // The Pass button's room changes with the screen and the tools beside it (Hint, React).
  const passRoom = new ResizeObserver(() => fitPass());
  for (const box of [ui.actions, ui.actions.closest(".me")]) if (box) passRoom.observe(box);
  mountHint((ask) => {
    const later = () => (canAskHint() ? ask() : say("There is no hint now: you have no pass or card to choose."));
    if (!whenStill("hint", later)) return false;
    say("Your hint comes once the others' cards are shown.");
    return true;
  });
  mountUndo(() => sendUndo());
  window.addEventListener("online", () => {
    redrawSigns();
    sendHeld();
  });
  window.addEventListener("offline", () => {
    if (document.body.dataset.screen === "table") say(GONE_OFFLINE, true);
    redrawSigns();
  });
  $("[data-action=scores]").addEventListener("click", () => showScores(app.state));
  $("[data-action=settings]").addEventListener("click", () => showSettings(app.prefs, () => {
    savePrefs(app.prefs);
    applyLook();
    if (app.state && !app.busy && document.body.dataset.screen === "table") render(app.state);
  }));
  const askNew = () => {
    if (atTableOfFriends(app.state)) confirmLeave(othersHere(app.state), { leave: leaveTable });
    else if (inFriendsLobby(app.state)) confirmLeaveLobby({ leave: leaveTable });
    else if (hostInLobby(app.state)) {
      const seated = app.state.players.filter((p, seat) => p.person && !p.open && seat !== app.state.view.seat);
      confirmHostLeavesLobby(listed(seated.map((p) => named(p.name))), { leave: leaveLobbyAsHost });
    } else showSetup();
  };
  $("[data-action=menu-new]").addEventListener("click", () => {
    if (app.busy) app.afterBusy = askNew;
    else askNew();
  });
  ui.tricks.addEventListener("click", () => showTricks(app.state));
  ui.sound.addEventListener("click", () => {
    app.prefs.sound = !soundOn(app.prefs);
    savePrefs(app.prefs);
    applyLook();
    sound("card");
  });
  // The start's three questions go at once, not one after another (on a slow line, a round
  // trip of 0.4 s each): the options, the game in progress, and the games to go on with.
  const link = new URLSearchParams(location.search).get("table");
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  const currentAsked = api.current().then((answer) => answer.id, () => null);
  if (!link) {
    app.gamesAsked = api.games();
    app.gamesAsked.catch(() => {}); // said by showSetup, if it is shown
  }
  try {
    app.options = await api.options();
  } catch (error) {
    clear(ui.setup, h("p", { class: "error", role: "alert" }, error.message));
    showScreen("setup");
    return;
  }
  table = new Table(ui.root, app.options.opponents);
  // Turning a phone moves the seats: more across the top when wide, more down the sides.
  matchMedia("(orientation: landscape)").addEventListener("change", () => {
    if (app.state && !app.busy && document.body.dataset.screen === "table") render(app.state);
  });
  // An invite link opened in a tab already at its table (the lobby, the table, the join
  // page) differs only after the #, so the browser does not load the page again: it is
  // followed here as a fresh visit would.
  window.addEventListener("hashchange", () => {
    const id = new URLSearchParams(location.search).get("table");
    const token = new URLSearchParams(location.hash.slice(1)).get("invite");
    if (!id || !token) return;
    serial(() => {
      stopLive();
      return openTableLink(id, token);
    });
  });
  const current = await currentAsked;
  if (link) await openTableLink(link, invite);
  else if (location.hash === "#play" && current) await resume(current);
  // No game going on: the one this tab showed, as it ended (its final panel), if it did.
  else if (location.hash === "#play" && shownBefore()) await resume(shownBefore());
  else await showSetup();
  app.gamesAsked = null; // not asked for by a start screen: old news by the next one
  document.body.dataset.ready = "true";
}

boot();
