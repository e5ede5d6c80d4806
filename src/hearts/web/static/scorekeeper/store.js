// Keeps the game and the round being typed in this browser (localStorage), so a reload or a
// closed tab loses nothing. Storage may be missing or full (private windows): say so, never crash.

import { entryFits, restoreGame } from "./model.js";

const KEY = "hearts.scorekeeper.v1";

function isNameList(names) {
  return Array.isArray(names) && names.every((name) => typeof name === "string");
}

/** What was saved: {game, dropped, draft, lastPlayers, ok} (ok false: there was a save, but
 * it could not be read), and `kept` false when this browser keeps nothing (storage off). */
export function load() {
  const nothing = { game: null, dropped: [], draft: null, lastPlayers: null, ok: true, kept: true };
  let raw;
  try {
    raw = window.localStorage.getItem(KEY);
  } catch {
    // Storage turned off (a browser setting, some private windows): nothing saved to read.
    return { ...nothing, kept: false };
  }
  if (!raw) return nothing;
  try {
    const data = JSON.parse(raw);
    const { game, dropped } = data.game ? restoreGame(data.game) : { game: null, dropped: [] };
    return {
      game,
      // A saved round that no longer adds up is not shown wrong: it is left out, and we say
      // which; the rounds that check out are kept.
      dropped,
      // Boxes that do not fit the game are left empty rather than shown wrong.
      draft: game && !dropped.length && entryFits(game, data.draft) ? data.draft : null,
      lastPlayers: isNameList(data.lastPlayers) ? data.lastPlayers : null,
      ok: !data.game || game !== null,
      kept: true,
    };
  } catch {
    return { ...nothing, ok: false };
  }
}

/** Save; returns false when the browser refuses to keep it. */
export function save(state) {
  try {
    window.localStorage.setItem(
      KEY,
      JSON.stringify({ game: state.game, draft: state.draft, lastPlayers: state.lastPlayers, savedAt: Date.now() }),
    );
    return true;
  } catch {
    return false;
  }
}

const FIX_KEY = "hearts.scorekeeper.fix.v1";

/** What a fix of round `index` stands on: the players, the rules and the rounds up to it.
 * A fix is kept only while these are as they were. */
export function fixBasis(game, index) {
  return JSON.stringify(game && [game.players, game.settings, game.rounds.slice(0, index + 1)]);
}

/** Keep a fix under way for this tab (sessionStorage: a reload, or a phone bringing a
 * discarded tab back, finds it; another tab has its own), or forget it (`fix` null). */
export function saveFix(game, fix) {
  try {
    if (fix === null) window.sessionStorage.removeItem(FIX_KEY);
    else window.sessionStorage.setItem(FIX_KEY, JSON.stringify({ ...fix, basis: fixBasis(game, fix.index) }));
  } catch {
    // Not kept: a reload leaves the fix, as it did before this was kept at all.
  }
}

/** The fix this tab had under way on `game`, or null (none, or the game changed since). */
export function loadFix(game) {
  try {
    const fix = JSON.parse(window.sessionStorage.getItem(FIX_KEY) ?? "null");
    const fits =
      game &&
      fix &&
      Number.isInteger(fix.index) &&
      fix.index >= 0 &&
      fix.index < game.rounds.length &&
      fix.basis === fixBasis(game, fix.index) &&
      entryFits(game, fix.draft);
    if (fits) return { index: fix.index, draft: fix.draft, changed: Boolean(fix.changed) };
    if (fix) window.sessionStorage.removeItem(FIX_KEY);
  } catch {
    // Unreadable: no fix.
  }
  return null;
}

/** Call back when another tab changes the saved game. */
export function onOtherTab(callback) {
  window.addEventListener("storage", (event) => {
    if (event.key === KEY) callback(load());
  });
}
