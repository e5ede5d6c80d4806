// The game this tab shows, kept for a reload once the game is over, and the side pages' way
// back to it. "Back to the game" led to the start screen when there was no game to go back
// to; it says "Play a game" then.

import { api } from "./api.js";

const SHOWN_GAME = "hearts.shown";

/** Keep the game this tab shows (or none: the start screen is open). A finished game is no
 * longer this browser's "current" one, and a reload on its final panel opened the start
 * screen: its standings and "Play again" were gone. */
export function keepShown(id) {
  try {
    if (id) sessionStorage.setItem(SHOWN_GAME, id);
    else sessionStorage.removeItem(SHOWN_GAME);
  } catch {
    // No storage: a reload of a finished game opens the start screen.
  }
}

export function shownBefore() {
  try {
    return sessionStorage.getItem(SHOWN_GAME);
  } catch {
    return null;
  }
}

/** Name the links back to the game ("/#play") for what they lead to: this browser's game
 * going on, the finished one this tab showed, or else the start screen. Each link gets
 * `data-leads-to` ("game" or "start") once that is known. */
export async function nameWaysBack(root = document) {
  const links = [...root.querySelectorAll('a[href="/#play"]')].filter((link) => !link.closest("[aria-hidden=true]"));
  if (!links.length) return;
  let game = Boolean(shownBefore());
  if (!game) {
    try {
      game = Boolean((await api.current()).id);
    } catch {
      game = true; // not known: the words the page came with stand
    }
  }
  for (const link of links) {
    if (!game) link.textContent = "Play a game";
    link.dataset.leadsTo = game ? "game" : "start";
  }
}
