// Dialogs opened from the table: the last trick, the scores so far, and the settings.

import { $, h, clear } from "./dom.js";
import { cardFace, cardName } from "./cards.js";
import { scoreSheet, totalsChart } from "./scores.js";
import { SPEEDS } from "./prefs.js";
import { nameOf } from "./words.js";

function openDialog(title, ...content) {
  const dialog = $("#dialog");
  dialog.setAttribute("aria-label", title);
  clear(dialog,
    h("h2", {}, title),
    ...content,
    h("form", { method: "dialog" }, h("button", { class: "primary", value: "close" }, "Close")));
  dialog.showModal();
}

export function showLastTrick(state) {
  const tricks = state?.view.tricks || [];
  const last = tricks[tricks.length - 1];
  if (!last) return;
  openDialog("The last trick",
    h("ol", { class: "last-trick" }, last.plays.map(([seat, card]) => h("li", {
      class: seat === last.winner ? "winner" : "",
    }, h("div", { class: "played", role: "img", "aria-label": cardName(card) }, cardFace(card)),
    h("span", {}, seat === 0 ? "You" : nameOf(state, seat), seat === last.winner ? " · took it" : "")))));
}

export function showScores(state) {
  if (!state) return;
  openDialog("Scores", totalsChart(state), scoreSheet(state));
}

/** The settings; `changed()` runs after each change to `prefs` (which it edits in place). */
export function showSettings(prefs, changed) {
  openDialog("Settings",
    h("fieldset", { class: "segmented" }, h("legend", {}, "Speed of play"),
      Object.entries(SPEEDS).map(([key, value]) => h("label", {},
        h("input", { type: "radio", name: "speed-setting", value: key, checked: prefs.speed === key,
          onchange: () => { prefs.speed = key; changed(); } }), h("span", {}, value.label)))),
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
