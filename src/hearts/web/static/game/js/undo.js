// The Undo button: takes back the person's latest pass or card of the round, and the
// computer players' moves after it (POST /api/games/{id}/undo). It shows only where the
// server says a take-back can be made now (`state.undo.to`), so it never offers one that
// would be refused; the controller (main.js) sends it and draws the table as it stood.

import { h } from "./dom.js";

const button = h("button", { type: "button", class: "quiet", "data-action": "undo", hidden: true,
  title: "Take back your last pass or card" }, "Undo");

/** Put the button beside Hint in the table's tools; `onUndo` sends the take-back. */
export function mountUndo(onUndo) {
  const tools = document.querySelector(".table-tools");
  const hint = tools?.querySelector("[data-action=hint]");
  if (hint) hint.after(button);
  else tools?.prepend(button);
  button.addEventListener("click", () => onUndo());
}

/** After each render: shown while a take-back can be made and the person is to choose. */
export function renderUndo(state, canAct) {
  const to = state?.undo?.allowed ? state.undo.to : null;
  button.hidden = !(canAct && to !== null && to !== undefined);
  if (button.hidden) return;
  button.setAttribute("aria-label", hasPlayed(state) ? "Undo: take back your last card" : "Undo: take back your pass");
}

/** The person's card is on its way: a take-back now is of that card (the button still said
 * "take back your pass" while the others' cards came in, and took back the card). */
export function undoNamesCard() {
  button.setAttribute("aria-label", "Undo: take back your last card");
}

/** Said when Undo is pressed while the others' cards come in: it is done once they stop. */
export function undoComingWords() {
  const what = button.getAttribute("aria-label")?.endsWith("pass") ? "pass" : "card";
  return `Taking back your ${what} once the others' cards are shown\u2026`;
}

/** Whether the person has played a card in this round (else the take-back is the pass). */
function hasPlayed(state) {
  const me = state.view.seat;
  const mine = ([seat]) => seat === me;
  return state.view.tricks.some((t) => t.plays.some(mine)) || state.view.trick.some(mine);
}

/** What a take-back from `state` undoes, in words for the status line. */
export function undoneWords(before) {
  return !hasPlayed(before)
    ? "You took back your pass: choose again."
    : "You took back your last card: your turn again.";
}
