// Dialogs opened from the table: every trick of the round, the scores so far, the settings,
// and the question before a new game.

import { $, h, clear } from "./dom.js";
import { cardFace, cardName } from "./cards.js";
import { scoreSheet, totalsChart } from "./scores.js";
import { fingerprintLine } from "./deal-check.js";
import { hintsTaken } from "./friends.js";
import { SPEEDS, soundOn } from "./prefs.js";
import { named, playedWhen, plural, roundTitle, whoIs } from "./words.js";

/** A dialog opens at its top, its title taking the keyboard: its first control may be far
 * down (the Scores' sealed deal), and a dialog scrolled there hid its title on a phone. */
function openDialog(title, ...content) {
  const dialog = $("#dialog");
  dialog.setAttribute("aria-label", title);
  const heading = h("h2", { tabindex: "-1" }, title);
  clear(dialog,
    heading,
    ...content,
    h("form", { method: "dialog" }, h("button", { class: "primary", value: "close" }, "Close")));
  dialog.showModal();
  heading.focus({ preventScroll: true });
  dialog.scrollTop = 0;
  return dialog;
}

/** Every trick of the round so far: who led, every card by who played it, who took it and
 * what it carried. The newest comes first. */
export function showTricks(state) {
  const tricks = state?.view.tricks || [];
  if (!tricks.length) return;
  const items = tricks.map((trick, i) => {
    const outcome = trick.held_over
      ? "Cancelled: its cards go to the next trick's winner."
      : `${whoIs(state, trick.winner)} took it${whatItCarried(state, trick)}.`;
    return h("li", { class: "trick-row", "data-trick": i + 1 },
      // "Trick 1: You took it", not "Trick 1 You took it" read as one run.
      h("h3", {}, `Trick ${i + 1}`, h("span", { class: "sr" }, ":"),
        h("span", { class: "trick-outcome" }, ` ${outcome}`)),
      h("ol", { class: "last-trick" }, trick.plays.map(([seat, card], k) => h("li", {
        class: [seat === trick.winner && !trick.held_over ? "winner" : "", k === 0 ? "lead" : ""].join(" ").trim(),
      }, h("div", { class: "played", role: "img",
        "aria-label": `${whoIs(state, seat)}: ${cardName(card)}${k === 0 ? ", led" : ""}` }, cardFace(card)),
      h("span", {}, whoIs(state, seat), k === 0 ? " · led" : "",
        seat === trick.winner && !trick.held_over ? " · took it" : "")))));
  });
  openDialog(`Tricks of ${roundTitle(state.view.hand_number).toLowerCase()}`,
    h("ol", { class: "trick-list", reversed: true }, items.reverse()));
}

/** The last trick, for the line over the table until the next one is taken: who took it
 * and what it carried (a newcomer saw "★ wins" for a second and nothing said what it cost). */
export function lastTrickLine(state, trick = state.view.tricks.at(-1)) {
  if (!trick) return "";
  if (trick.held_over) return "Every card of the suit led cancelled: the next trick's winner takes these cards too.";
  return `${whoIs(state, trick.winner)} took the previous trick${whatItCarried(state, trick)}.`;
}

/** ": 2 hearts, the queen of spades", or ", nothing that scores". */
function whatItCarried(state, trick) {
  const bonus = state.view.rules.bonus_card;
  const cards = [...trick.plays.map(([, card]) => card), ...trick.carried];
  const hearts = cards.filter((card) => card[1] === "H").length;
  const carried = [];
  if (hearts) carried.push(plural(hearts, "heart"));
  if (cards.includes("QS")) carried.push("the queen of spades");
  if (bonus && cards.includes(bonus)) carried.push(`the ${cardName(bonus)}`);
  return carried.length ? `: ${carried.join(", ")}` : ", nothing that scores";
}

export function showScores(state) {
  if (!state) return;
  openDialog("Scores", totalsChart(state), scoreSheet(state), hintsTaken(state), fingerprintLine(state));
}

/** The settings; `changed()` runs after each change to `prefs` (which it edits in place). */
export function showSettings(prefs, changed) {
  openDialog("Settings",
    h("fieldset", { class: "segmented" }, h("legend", {}, "Speed of play"),
      Object.entries(SPEEDS).map(([key, value]) => h("label", {},
        h("input", { type: "radio", name: "speed-setting", value: key, checked: prefs.speed === key,
          onchange: () => { prefs.speed = key; changed(); } }), h("span", {}, value.label)))),
    toggle("set-tap", prefs.tapToContinue, "Tap to continue",
      "Each finished trick stays on the table until you press Continue.",
      (on) => { prefs.tapToContinue = on; changed(); }),
    toggle("set-auto", prefs.autoPlay, "Play my only card",
      "When just one of your cards may be played, it plays itself.",
      (on) => { prefs.autoPlay = on; changed(); }),
    toggle("set-finish", prefs.finishSettled !== false, "Finish a decided round",
      "When no point can change hands any more, the rest of the round plays itself.",
      (on) => { prefs.finishSettled = on; changed(); }),
    toggle("set-sound", soundOn(prefs), "Sound",
      "A card laid down, hearts broken, the queen falling, a moon. Off at first when your system asks for less motion.",
      (on) => { prefs.sound = on; changed(); }),
    toggle("set-points", prefs.showPoints, "Show points taken",
      "Each player's points so far this round, beside their name.",
      (on) => { prefs.showPoints = on; changed(); }),
    toggle("set-colours", prefs.fourColour, "Four-colour suits",
      "Clubs green and diamonds blue, as well as their shapes.",
      (on) => { prefs.fourColour = on; changed(); }));
}

function toggle(id, checked, label, help, onchange) {
  return h("div", { class: "rule toggle" },
    h("input", { type: "checkbox", id, checked, onchange: (e) => onchange(e.target.checked) }),
    h("label", { for: id }, h("strong", {}, label), h("span", { class: "help" }, help)));
}

/** Before a new game while one is unfinished: say that it stays saved, and offer it. When
 * the browser has as many unfinished games of its own as it keeps, say which one a new game
 * closes (`closing`, from the list: the one untouched longest); it went unsaid. */
export function confirmNewGame(game, closing, { start, keep }) {
  const dialog = $("#dialog");
  dialog.setAttribute("aria-label", "Start a new game?");
  const close = (then) => () => { dialog.close(); then(); };
  const few = "this browser keeps only its few latest unfinished games of its own";
  const closed = !closing ? null
    : closing === game ? h("p", { "data-region": "closes" }, `A new game closes it: ${few}.`)
      : h("p", { "data-region": "closes" }, "A new game closes ",
        closing.damaged ? "the damaged game" : `your game to ${closing.target} in round ${closing.round}`,
        `, last played ${playedWhen(closing.played)}: ${few}, and that one was played longest ago.`);
  clear(dialog,
    h("h2", {}, "Start a new game?"),
    h("p", {}, `Your game to ${game.target} is in round ${game.round}: `,
      game.names.map((name, seat) => `${named(name)} ${game.scores[seat]}`).join(", "), "."),
    closing === game ? null : h("p", {}, "It stays saved: you can go back to it from the start screen at any time."),
    closed,
    h("div", { class: "row dialog-buttons" },
      h("button", { type: "button", "data-action": "keep-playing", onclick: close(keep) }, "Back to my game"),
      h("button", { type: "button", class: "primary", "data-action": "confirm-new", onclick: close(start) },
        "Start a new game")));
  dialog.showModal();
}

/** Before a person leaves a table of friends mid-game: what happens to their seat. */
export function confirmLeave(others, { leave }) {
  askToLeave("Leave the table?", leave,
    `A computer player plays your cards from now on, and ${others} will see that you have gone.`,
    "Your seat stays yours: open this game again from the start screen, or by its link, to take it back.");
}

/** Before a table starts, a friend leaving its lobby gives their seat back: ask first. */
export function confirmLeaveLobby({ leave }) {
  askToLeave("Leave the table?", leave, "If you leave, your seat is open again: the link can bring someone else to it.");
}

/** Before the host leaves the lobby of their table: it waits for them, and the friends
 * seated there wait too (it went without a word). */
export function confirmHostLeavesLobby(friends, { leave }) {
  askToLeave("Leave your table?", leave,
    friends ? `${friends} will wait in the lobby, told that you have left it for now.` : "The table waits for your friends.",
    "It stays on your start screen, and its link keeps working: come back to start it.");
}

/** The question `title` with what leaving does (`lines`): Stay, or Leave the table. */
function askToLeave(title, leave, ...lines) {
  const dialog = $("#dialog");
  dialog.setAttribute("aria-label", title);
  const close = (then) => () => { dialog.close(); then(); };
  clear(dialog,
    h("h2", {}, title),
    ...lines.map((line) => h("p", {}, line)),
    h("div", { class: "row dialog-buttons" },
      h("button", { type: "button", "data-action": "stay-at-table", onclick: close(() => {}) }, "Stay"),
      h("button", { type: "button", class: "primary", "data-action": "leave-table", onclick: close(leave) },
        "Leave the table")));
  dialog.showModal();
}
