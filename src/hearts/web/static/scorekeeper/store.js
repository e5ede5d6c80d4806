// Keeps the game and the round being typed in this browser (localStorage), so a reload or a
// closed tab loses nothing. Storage may be missing or full (private windows): say so, never crash.

import { restoreGame } from "./model.js";

const KEY = "hearts.scorekeeper.v1";

export function load() {
  try {
    const raw = window.localStorage.getItem(KEY);
    if (!raw) return { game: null, dropped: [], draft: null, lastPlayers: null, ok: true };
    const data = JSON.parse(raw);
    const { game, dropped } = data.game ? restoreGame(data.game) : { game: null, dropped: [] };
    return {
      game,
      // A saved round that no longer adds up is not shown wrong: it is left out, and we say
      // which; the rounds that check out are kept.
      dropped,
      draft: game && !dropped.length ? data.draft ?? null : null,
      lastPlayers: Array.isArray(data.lastPlayers) ? data.lastPlayers : null,
      ok: !data.game || game !== null,
    };
  } catch {
    return { game: null, dropped: [], draft: null, lastPlayers: null, ok: false };
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

/** Call back when another tab changes the saved game. */
export function onOtherTab(callback) {
  window.addEventListener("storage", (event) => {
    if (event.key === KEY) callback(load());
  });
}
