// Light or dark for the start screen, the rules page and the panels over the table (game.css):
// the system's choice unless the person picks one (kept in this browser).

import { h } from "./dom.js";

const KEY = "hearts.theme";
const CHOICES = { system: "As the system", light: "Light", dark: "Dark" };

export function chosenTheme() {
  try {
    const value = localStorage.getItem(KEY);
    return value in CHOICES ? value : "system";
  } catch {
    return "system";
  }
}

export function applyTheme() {
  const value = chosenTheme();
  if (value === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = value;
}

function choose(value) {
  try {
    if (value === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, value);
  } catch {
    // Without storage the choice lasts for this page only.
  }
  applyTheme();
}

/** Radio buttons for the look, as a small segmented control. */
export function themeControl() {
  const current = chosenTheme();
  return h("fieldset", { class: "segmented small theme-choice" },
    h("legend", {}, "Look"),
    Object.entries(CHOICES).map(([value, label]) => h("label", {},
      h("input", { type: "radio", name: "theme", value, checked: value === current,
        onchange: () => choose(value) }),
      h("span", {}, label))));
}
