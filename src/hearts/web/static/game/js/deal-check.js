// A shuffle anyone can check. While a round is played the server sends the SHA-256 of the key
// the round was dealt from (its "fingerprint"); when the round is over it sends the key. This
// module keeps, per game and round, the fingerprint and the hand as this browser first saw
// them, shows the fingerprint in the Scores dialog, and after each round offers a link to the
// rules page, where the key, the fingerprint and the hand fill in two lines of Python.

import { h } from "./dom.js";

const PREFIX = "hearts-deal";

function storageKey(gameId, handNumber) {
  return `${PREFIX}:${gameId}:${handNumber}`;
}

function recall(gameId, handNumber) {
  try {
    return JSON.parse(localStorage.getItem(storageKey(gameId, handNumber)) || "null");
  } catch {
    return null;
  }
}

/** Remember the round's fingerprint, and the hand while it is still the one dealt. */
export function noteDeal(state) {
  if (!state?.commitment) return;
  const view = state.view;
  const number = view.hand_number;
  const known = recall(state.id, number);
  if (known && known.commitment === state.commitment) return;
  // The hand is the dealt one only before any card of it changed hands: during the pass, or
  // in a round without a pass before this seat's first card (others may have played).
  const untouched = state.phase === "passing" || (view.pass_direction === "hold"
    && !view.tricks.length && !view.trick.some(([seat]) => seat === view.seat));
  const entry = { commitment: state.commitment, hand: untouched ? view.hand : null };
  try {
    localStorage.setItem(storageKey(state.id, number), JSON.stringify(entry));
  } catch {
    // A full or forbidden storage only loses the reminder; the check still works.
  }
}

/** A line for the Scores dialog: this round's fingerprint while it is played. */
export function fingerprintLine(state) {
  if (!state?.commitment) return null;
  // Folded: 64 hexadecimal digits are for the few who check, not for every look at the scores.
  return h("details", { class: "fingerprint", "data-region": "fingerprint" },
    h("summary", {}, "This round's deal is sealed"),
    h("p", {}, "Its fingerprint: ", h("code", {}, state.commitment),
      ". The key it was dealt from is shown when the round ends; ",
      h("a", { href: "/rules#check-a-deal" }, "how to check it"), "."));
}

/** "Check this deal" for the round just finished, or null in a game dealt the old way. */
export function dealCheckLink(state) {
  const result = state.results[state.results.length - 1];
  if (!result?.deal_key) return null;
  const view = state.view;
  const known = recall(state.id, result.hand_number) || {};
  const query = new URLSearchParams({
    key: result.deal_key,
    round: String(result.hand_number),
    players: String(view.rules.players),
    seat: String(view.seat),
  });
  if (view.rules.kitty) query.set("kitty", "1");
  if (known.commitment) query.set("seen", known.commitment);
  if (known.hand) query.set("hand", known.hand.join(" "));
  return h("p", { class: "deal-check" },
    h("a", { href: `/rules?${query}#check-a-deal`, "data-action": "check-deal", target: "_blank", rel: "noopener" },
      "Check this deal"),
    " (proof the deal was sealed before the first card)");
}
