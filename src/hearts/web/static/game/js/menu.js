// The header's menu when its words do not fit beside the heart (large text on a phone: at 200%
// on a 390 px screen "Rules" was cut off the edge). The words fold into one "Menu" button that
// opens them as a list under the bar; with room again, they come back.

import { h } from "./dom.js";

/** Fold `bar`'s .menu into a Menu button whenever the bar's content is wider than the bar. */
export function foldingMenu(bar = document.querySelector("header.bar")) {
  const menu = bar?.querySelector(".menu");
  if (!menu) return;
  menu.id ||= "menu-items";
  const toggle = h("button", {
    type: "button", class: "menu-toggle", "aria-expanded": "false", "aria-controls": menu.id,
    onclick: () => open(!menu.classList.contains("open")),
  }, "Menu");
  menu.before(toggle);

  function open(yes) {
    menu.classList.toggle("open", yes);
    toggle.setAttribute("aria-expanded", String(yes));
  }

  // A choice made, Escape, or a tap elsewhere closes the list. A choice closes it before
  // its own action runs, with the focus on Menu: a dialog it opens gives the focus back
  // there when it closes (it went to the page, the choice's button being hidden by then).
  menu.addEventListener("click", (event) => {
    if (!event.target.closest("a, button") || !menu.classList.contains("open")) return;
    open(false);
    toggle.focus({ preventScroll: true });
  }, true);
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !menu.classList.contains("open")) return;
    open(false);
    toggle.focus();
  });
  document.addEventListener("click", (event) => {
    if (!bar.contains(event.target)) open(false);
  });

  // Measured unfolded each time: the words' width changes with the text size and the screen
  // (the start screen hides New and Scores).
  function fit() {
    const focused = document.activeElement;
    delete bar.dataset.folded;
    const folded = bar.scrollWidth > bar.clientWidth + 1 || cutShort(bar);
    if (folded) bar.dataset.folded = "true";
    else open(false);
    if (folded && menu.contains(focused) && !menu.classList.contains("open")) toggle.focus();
  }
  // Every part of the bar: a part that comes or goes (the "Reconnecting…" note) changes the
  // room the others have.
  const watch = new ResizeObserver(fit);
  for (const part of new Set([bar, menu, toggle, ...bar.children])) watch.observe(part);
  new MutationObserver(fit).observe(document.body, { attributes: true, attributeFilter: ["data-screen"] });
  // The round's words change each round ("Pass left", "Keep round") in a box of one size.
  const round = bar.querySelector("[data-region=round]");
  if (round) new MutationObserver(fit).observe(round, { childList: true, subtree: true, characterData: true });
  fit();
}

/** Whether the round's words beside the menu are cut to less than half ("R…", "P…" at large
 * text: the bar fitted, the words did not). "Keep rou…" is left: it still says the round. */
function cutShort(bar) {
  return [...bar.querySelectorAll("[data-region=round] > span")]
    .some((part) => part.textContent && part.clientWidth * 2 < part.scrollWidth);
}
