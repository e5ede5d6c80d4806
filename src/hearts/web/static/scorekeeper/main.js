// The scorekeeper page: holds the state, saves it, and puts the right screen up.

import { h, clear, fitWords } from "./dom.js";
import { renderEntry } from "./entry.js";
import { renderHistory, renderScoreboard, renderSummary, rulesLine } from "./board.js";
import {
  addRound,
  before,
  emptyEntry,
  isBlankEntry,
  joinNames,
  named,
  newGame,
  replaceRound,
  sheetNames,
  sheetQuery,
  summary,
  undoRound,
} from "./model.js";
import { renderSetup } from "./setup.js";
import * as store from "./store.js";

/** The look chosen on the game's start screen (kept in this browser), else the system's. */
function applyTheme() {
  let chosen = null;
  try {
    chosen = localStorage.getItem("hearts.theme");
  } catch {
    // No storage: the system's look.
  }
  if (chosen === "light" || chosen === "dark") document.documentElement.dataset.theme = chosen;
  else delete document.documentElement.dataset.theme;
}
applyTheme();
addEventListener("storage", (event) => {
  if (event.key === "hearts.theme" || event.key === null) applyTheme();
});

const saved = store.load();
const keptFix = store.loadFix(saved.game);
const state = {
  game: saved.game,
  draft: saved.draft,
  lastPlayers: saved.lastPlayers,
  lastSettings: saved.game?.settings ?? null,
  confirmingNew: false,
  confirmingUndo: false,
  entryView: null,
  // A round played before, taken back into the boxes to fix: its index, and the boxes (kept
  // apart from the next round's, and kept for this tab only, so a reload finds them).
  fixing: keptFix?.index ?? null,
  fixDraft: keptFix?.draft ?? null,
  fixChanged: keptFix?.changed ?? false, // something in its boxes was changed
};

/** Keep the fix under way (or its end) for a reload of this tab. */
function keepFix() {
  store.saveFix(
    state.game,
    state.fixing === null ? null : { index: state.fixing, draft: state.fixDraft, changed: state.fixChanged },
  );
}

const $ = (selector) => document.querySelector(selector);
const status = $("[data-status]");
const setupRoot = $("[data-screen=setup]");
const gameRoot = $("[data-screen=game]");

const UNSAVED = "This browser is not keeping the scores (storage is off or full); a reload would lose them.";
/** The last save failed: every message says so too, until a save works again. */
let unsaved = false;

/** Say something in the status line (role="status"), next to the buttons just used. */
function say(message, kind = "info") {
  if (unsaved) {
    message = message ? `${message} ${UNSAVED}` : UNSAVED;
    kind = "error";
  }
  status.textContent = message;
  status.dataset.kind = kind;
  status.hidden = !message;
}

/** A check's sentence after "Not added: ", mid-sentence: its first word in lower case
 * ("Not added: these add up to 25; ..."). A sentence that starts with a name (set apart
 * by `named`) keeps it as typed, and a word in capitals (an abbreviation) stays so. */
function afterColon(message) {
  return /^[A-Z](?![A-Z])/.test(message) ? message[0].toLowerCase() + message.slice(1) : message;
}

function persist() {
  unsaved = !store.save({ game: state.game, draft: state.draft, lastPlayers: state.lastPlayers });
  if (unsaved) say("");
}

function moveStatusInto(root) {
  const slot = root.querySelector("[data-slot=status]");
  if (slot) slot.before(status);
}

/** The round's boxes are about to be drawn again or taken away: the old ones stop listening. */
function closeEntry() {
  state.entryView?.close();
  state.entryView = null;
}

/** The sheets print this game's table, passing and rules: the score sheet round by round,
 * headed by the game's `names` once it has begun, the rule sheet with this table's cards
 * each, cards left out and lead, and the rules the table plays by. Drawn again whenever the
 * game (or the setup screen's choices) change. */
function linkSheets(playerCount, settings, names = []) {
  const query = sheetQuery(playerCount, settings);
  // Said only when they do: a target not typed yet gives the table's sheets without rules.
  $("[data-note=own-rules]").hidden = !query.includes("moon=");
  for (const kind of ["score", "rules"]) {
    const own = kind === "score" ? query + sheetNames(names) : query;
    $(`[data-link=${kind}-pdf]`).href = `/sheets/${kind}.pdf?${own}`;
    $(`[data-link=${kind}-pdf-a4]`).href = `/sheets/${kind}.pdf?${own}&paper=a4`;
  }
}

function showSetup(prefill) {
  closeEntry();
  setupRoot.hidden = false;
  gameRoot.hidden = true;
  document.body.dataset.screen = "setup";
  // The sheets follow the choices on the screen: a table prints its rules before the first deal.
  const view = renderSetup(setupRoot, prefill, (names, settings) => {
    try {
      state.game = newGame(names, settings);
    } catch (error) {
      say(error.message, "error");
      view.mark(error.player, error.field, error.message);
      return;
    }
    state.draft = null;
    state.lastPlayers = state.game.players;
    state.lastSettings = state.game.settings;
    persist();
    say(`New game for ${state.game.players.length} players. Good luck!`);
    showGame({ focus: true });
  }, linkSheets);
  moveStatusInto(setupRoot);
  return view;
}

function showGame({ focus = false } = {}) {
  const game = state.game;
  const sum = summary(game);
  closeEntry();
  setupRoot.hidden = true;
  gameRoot.hidden = false;
  document.body.dataset.screen = "game";
  document.body.dataset.over = String(sum.over);

  clear($("[data-region=rules]"), rulesLine(game));
  renderSummary($("[data-region=summary]"), game, sum);
  renderScoreboard($("[data-region=scoreboard]"), game, sum);
  if (state.fixing !== null && state.fixing >= game.rounds.length) state.fixing = null;
  renderHistory($("[data-region=history]"), game, sum, state.fixing);
  linkSheets(game.players.length, game.settings, game.players);

  const entryRoot = $("[data-region=entry]");
  let entryView = null;
  if (state.fixing !== null) {
    entryView = state.entryView = renderEntry(entryRoot, before(game, state.fixing), state.fixDraft, {
      roundNumber: state.fixing + 1,
      fixing: true,
      onChange: (draft) => {
        state.fixDraft = draft;
        state.fixChanged = true;
        keepFix();
        say("");
      },
      onSubmit: saveFix,
    });
  } else if (sum.over) {
    clear(
      entryRoot,
      h(
        "div",
        { class: "game-over" },
        h("p", {}, gameOverText(game, sum)),
        h(
          "div",
          { class: "actions", dataset: { slot: "status" } },
          h("button", { type: "button", class: "primary", dataset: { action: "rematch" } }, "Play again, same players"),
        ),
      ),
    );
  } else {
    entryView = state.entryView = renderEntry(entryRoot, game, state.draft, {
      roundNumber: sum.nextRound,
      onChange: (draft) => {
        state.draft = draft;
        persist();
        say(""); // what the status said was about the entry before this edit
      },
      onSubmit: submitRound,
    });
  }
  drawToolbar(sum);
  moveStatusInto(gameRoot.querySelector("[data-region=entry]"));
  fitWords(gameRoot);
  if (focus) entryView?.focus();
}

function gameOverText(game, sum) {
  const reached = game.players.filter((_, i) => sum.totals[i] >= game.settings.target);
  return (
    `The game ended after round ${game.rounds.length}: ${joinNames(reached.map(named))} reached ${game.settings.target}. ` +
    "A slip in the last round? Undo it and enter it again."
  );
}

function drawToolbar(sum) {
  const last = state.game.rounds.length;
  const undo = $("[data-action=undo]");
  undo.disabled = last === 0;
  undo.textContent = last ? `Undo round ${last}` : "Undo";
  // Nothing left to ask about: the round was added, the boxes emptied, or another tab undid it.
  const question = last ? undoQuestion(last, sum) : null;
  if (!question) state.confirmingUndo = false;
  $("[data-panel=confirm-undo]").hidden = !state.confirmingUndo;
  if (state.confirmingUndo) {
    undo.setAttribute("aria-expanded", "true");
    $("[data-slot=undo-question]").textContent = question;
    $("[data-action=confirm-undo]").textContent = `Yes, undo round ${last}`;
    $("[data-action=cancel-undo]").textContent = keepWords(sum);
  } else {
    undo.removeAttribute("aria-expanded");
  }
  const confirm = $("[data-panel=confirm-new]");
  confirm.hidden = !state.confirmingNew;
  $("[data-action=new-game]").setAttribute("aria-expanded", String(state.confirmingNew));
  $("[data-action=print]").disabled = false;
  document.title = sum.over ? "Game over · Hearts scorekeeper" : `Round ${sum.nextRound} · Hearts scorekeeper`;
}

/** What Undo of round `last` would throw away, as its question ("Undo round 2? …"), or null
 * when it would throw nothing away: the changes in a fix under way, and the points typed for
 * the next round (none once the game is over: its boxes are gone). */
function undoQuestion(last, sum) {
  const fix = state.fixing !== null ? state.fixing + 1 : null;
  const changedFix = fix !== null && state.fixChanged;
  const typed = !sum.over && !isBlankEntry(state.draft);
  // A moon comes back as its shooter picked, not as points in the boxes.
  const replace = `round ${last}'s ${state.game.rounds[last - 1]?.moon ? "moon" : "points"} will replace them`;
  if (changedFix && typed) {
    return `Undo round ${last}? The changes to round ${fix} are not saved yet, nor the points typed ` +
      `for round ${last + 1}; ${replace}.`;
  }
  if (changedFix) return `Undo round ${last}? The changes to round ${fix} in the boxes are not saved yet; ${replace}.`;
  if (!typed) return null;
  const left = fix !== null ? `, and the fix of round ${fix} will be left` : "";
  return `Undo round ${last}? The points ${fix !== null ? "typed" : "in the boxes"} for round ${last + 1} ` +
    `are not added yet; ${replace}${left}.`;
}

/** The button that answers the undo question with no: it keeps what the question is about. */
function keepWords(sum) {
  const typed = !sum.over && !isBlankEntry(state.draft);
  if (state.fixing === null || !state.fixChanged) return "Keep my points";
  return typed ? "Keep what I typed" : "Keep my changes";
}

function submitRound(entry) {
  const { game, check } = addRound(state.game, entry);
  if (!check.ok) {
    say(`Not added: ${afterColon(check.message)}`, "error");
    state.entryView?.refused();
    return;
  }
  state.game = game;
  state.draft = emptyEntry(game);
  persist();
  const sum = summary(game);
  const last = sum.history[sum.history.length - 1];
  const notes = last.notes.length ? ` ${last.notes.join(" ")}` : "";
  say(`Round ${game.rounds.length} added.${notes}${overWords(game, sum)}`, "done");
  showTotals();
}

/** " Game over: Ana wins." (or "a tie") once the game is over; nothing before. */
function overWords(game, sum) {
  if (!sum.over) return "";
  return ` Game over: ${sum.winners.length > 1 ? "a tie" : `${named(game.players[sum.winners[0]])} wins`}.`;
}

/** The game drawn again after a round was added or fixed. The cursor waits in the first box,
 * but the new totals and the next pass stay in sight: on a phone the boxes are below them,
 * and scrolling to the cursor hid them. */
function showTotals() {
  showGame();
  state.entryView?.focus({ preventScroll: true });
  $("[data-region=summary]").scrollIntoView({ block: "nearest" });
}

/** A round's points as the boxes show them (a moon: the moon, and empty boxes; its choice
 * as the table made it). */
function draftOf(round, game) {
  return {
    points: round.moon ? game.players.map(() => "") : round.points.map((p) => String(p)),
    bonus: [...round.bonus],
    moon: round.moon ? { ...round.moon, picked: Boolean(round.moon.choice) } : null,
  };
}

/** What the entry shows of a round put back into it, after "Round 3 taken back": its points
 * in the boxes, or for a moon (no points typed) the shooter picked again. */
function backWords(draft) {
  return draft?.moon
    ? "it was a moon: fix who shot it, or press “Not a moon” to type the points."
    : "its points are in the boxes to fix.";
}

/** Leave a fix under way: the words that say so when something in it had been changed
 * (" The changes to round 3 were not saved."), else "". */
function dropFix() {
  const index = state.fixing;
  const words = index !== null && state.fixChanged ? ` The changes to round ${index + 1} were not saved.` : "";
  state.fixing = null;
  state.fixDraft = null;
  state.fixChanged = false;
  keepFix();
  return words;
}

/** Take round `index` back into the boxes to fix it; the rounds after it stay. */
function startFix(index) {
  const round = state.game.rounds[index];
  if (!round) return;
  const left = dropFix(); // another round's fix, if one was under way
  state.fixing = index;
  state.fixDraft = draftOf(round, state.game);
  keepFix();
  state.confirmingUndo = false;
  state.confirmingNew = false;
  const what = round.moon
    ? `Round ${index + 1} was a moon: fix who shot it, or press “Not a moon” to type the points, then save it.`
    : `Round ${index + 1}'s points are in the boxes: change what was wrong, then save it.`;
  say(`${what}${left}`);
  showGame();
  $("[data-region=entry]").scrollIntoView({ block: "start" });
  state.entryView?.focus({ preventScroll: true });
}

function saveFix(entry) {
  const index = state.fixing;
  const { game, check } = replaceRound(state.game, index, entry);
  if (!check.ok) {
    say(`Not saved: ${afterColon(check.message)}`, "error");
    state.entryView?.refused();
    return;
  }
  state.game = game;
  dropFix();
  persist();
  const sum = summary(game);
  const after = game.rounds.length > index + 1 ? "; the totals after it are worked out again" : "";
  say(`Round ${index + 1} fixed${after}.${overWords(game, sum)}`, "done");
  showTotals();
}

function cancelFix() {
  const index = state.fixing;
  dropFix();
  say("");
  showGame();
  $(`[data-action=fix-round][data-round="${index}"]`)?.focus();
}

/** Undo at once when it throws nothing away; otherwise ask first, since undoing fills the boxes. */
function askToUndo() {
  if (state.confirmingUndo) {
    state.confirmingUndo = false; // a second press closes the question, as "New game" does
    showGame();
    return;
  }
  const last = state.game.rounds.length;
  if (!last || !undoQuestion(last, summary(state.game))) {
    undo();
    return;
  }
  state.confirmingUndo = true;
  state.confirmingNew = false;
  say(""); // what the line said was about the boxes before the question (a refused round)
  showGame();
  $("[data-action=cancel-undo]").focus();
}

function undo() {
  state.confirmingUndo = false;
  const left = dropFix();
  if (!state.game?.rounds.length) {
    say("There is no round to undo.", "error");
    return;
  }
  const last = state.game.rounds[state.game.rounds.length - 1];
  state.game = undoRound(state.game);
  // Put the undone round back in the boxes, so a slip is fixed by editing, not retyping.
  state.draft = draftOf(last, state.game);
  persist();
  say(`Round ${state.game.rounds.length + 1} taken back; ${backWords(state.draft)}${left}`);
  showGame({ focus: true });
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  switch (button.dataset.action) {
    case "undo":
      askToUndo();
      break;
    case "confirm-undo":
      undo();
      break;
    case "fix-round":
      startFix(Number(button.dataset.round));
      break;
    case "cancel-fix":
      cancelFix();
      break;
    case "cancel-undo":
      state.confirmingUndo = false;
      showGame();
      $("[data-action=undo]").focus();
      break;
    case "new-game":
      state.confirmingNew = !state.confirmingNew;
      state.confirmingUndo = false;
      showGame();
      // The safe answer first, as the Undo question does: Enter twice must not clear a game.
      if (state.confirmingNew) $("[data-action=cancel-new-game]").focus();
      break;
    case "cancel-new-game":
      state.confirmingNew = false;
      showGame();
      $("[data-action=new-game]").focus();
      break;
    case "confirm-new-game":
    case "rematch": {
      const rematch = button.dataset.action === "rematch";
      const prefill = { names: state.game.players, settings: state.game.settings };
      state.confirmingNew = false;
      dropFix(); // the game is cleared or started again: nothing of it to keep
      if (rematch) {
        state.game = newGame(prefill.names, prefill.settings);
        state.draft = null;
        persist();
        say("New game with the same players and rules.");
        showGame({ focus: true });
      } else {
        state.game = null;
        state.draft = null;
        persist();
        say("");
        showSetup(prefill).focus();
      }
      break;
    }
    case "fresh-setup":
      // The last game's names and rules put aside: the standard game, no names.
      say("");
      showSetup({}).focus();
      break;
    case "print":
      window.print();
      break;
    default:
      break;
  }
});

store.onOtherTab((fresh) => {
  // Another tab of this scorekeeper changed the game: follow it rather than overwrite it.
  // A fix under way here stays while the rounds up to it are as they were; else it is left,
  // and said so (it went without a word when the other tab only typed a point).
  const fixing = state.fixing;
  const kept = fixing !== null && store.fixBasis(fresh.game, fixing) === store.fixBasis(state.game, fixing);
  // What this tab last said of the rounds ("✓ Round 4 added.") is stale once another tab
  // has added or taken back one: said anew.
  const before = state.game?.rounds.length ?? 0;
  const after = fresh.game?.rounds.length ?? 0;
  if (state.game && fresh.game && after < before) {
    say(`Round ${before} was taken back in another tab; ${backWords(fresh.draft)}`);
  } else if (state.game && fresh.game && after > before) {
    say(`Round ${after} was added in another tab.`);
  }
  state.game = fresh.game;
  state.draft = fresh.draft;
  if (fixing !== null && !kept) {
    dropFix();
    say(`Another tab changed the game, so the fix of round ${fixing + 1} here was left.`, "error");
  }
  if (fresh.dropped.length) say(droppedMessage(fresh.dropped), "error");
  if (state.game) showGame();
  else showSetup({ names: fresh.lastPlayers ?? undefined });
});

/** "Round 2 of the saved game ...", "Rounds 2 and 5 of the saved game ..." */
function droppedMessage(dropped) {
  const rounds = dropped.length === 1 ? `Round ${dropped[0]}` : `Rounds ${joinNames(dropped.map(String))}`;
  const verb = dropped.length === 1 ? "did not add up, so it was" : "did not add up, so they were";
  return `${rounds} of the saved game ${verb} left out; the other rounds are kept.`;
}

if (!saved.kept) {
  unsaved = true; // no save will work: said from the start, not after the first round
  say("");
} else if (!saved.ok) say("The saved game could not be read, so this is a fresh start.", "error");
else if (saved.dropped.length) {
  say(droppedMessage(saved.dropped), "error");
  persist(); // keep what holds together, so the next load is clean
}
else if (keptFix) say(`Round ${keptFix.index + 1}'s fix is as you left it: save it, or keep the round as it was.`);
if (state.game) showGame();
else showSetup({ names: state.lastPlayers ?? undefined }).focus();
// A turned phone or a resized window gives the names another width to fit.
addEventListener("resize", () => fitWords(gameRoot));
matchMedia("print").addEventListener("change", () => fitWords(gameRoot)); // paper is another width
document.body.dataset.ready = "true";

// The scores work offline; the printable sheets come from the server.
function showConnection() {
  $("[data-note=offline]").hidden = navigator.onLine;
}
addEventListener("online", showConnection);
addEventListener("offline", showConnection);
showConnection();

if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker
    .register("/scorekeeper/sw.js", { scope: "/scorekeeper" })
    .then(() => {
      document.body.dataset.offline = "registered";
    })
    .catch(() => {
      document.body.dataset.offline = "unavailable";
    });
}
