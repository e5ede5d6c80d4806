// The round entry: points per player, the bonus card, "Shot the moon", and a live sum check.

import { h, clear, fitWords } from "./dom.js";
import {
  bonusName,
  bonusOffered,
  checkRound,
  decksFor,
  emptyEntry,
  isBlankEntry,
  moonAmount,
  pointsPerRound,
  scoreRound,
  suggestedChoice,
  summary,
  teamLeads,
  tapBonus,
  teamWords,
} from "./model.js";

const BONUS_SHORT = { jack: "J♦", ten: "10♦" };

/**
 * Render the entry for the next round of `game` into `root`, starting from `draft`.
 * onChange(draft) is called on every edit (to save it); onSubmit(draft) to add the round.
 * `fixing`: the round is one played before, taken back to fix (`game` is cut before it).
 */
export function renderEntry(root, game, draft, { onChange, onSubmit, roundNumber, fixing = false }) {
  const n = game.players.length;
  const decks = decksFor(n);
  const full = pointsPerRound(n);
  const bonusOn = game.settings.bonus !== "none";
  const card = bonusName(game.settings.bonus);
  const cards = bonusName(game.settings.bonus, decks);
  const partnership = Boolean(game.settings.partnership);
  const before = summary(game).totals;
  const entry = draft && draft.points?.length === n ? structuredClone(draft) : emptyEntry(game);
  // Under "the shooter chooses" the page picks the sensible choice until the table picks one
  // (`moon.picked`, kept with the boxes: a choice the page made is worked out again after a
  // reload, or once a round before it was fixed, since the totals it went by may differ).

  // Not a live region: one read out at every key pressed is too much. Each box names it as
  // its description instead, read when the box is reached; Add round says what was wrong.
  const sumCheck = h("p", { class: "sum-check", id: "sum-check", dataset: { sumCheck: "" } });
  const pointInputs = [];
  const bonusButtons = [];

  const rows = game.players.map((name, i) => {
    // A text box with a number keypad: a number box would let "13e" through as empty (0).
    const input = h("input", {
      id: `points-${i}`,
      type: "text",
      "aria-label": `${name} points`, // the name alone said nothing of what goes in the box
      "aria-describedby": "sum-check",
      inputmode: "numeric",
      pattern: "[0-9]*",
      // No maxlength: a browser cuts what is typed or pasted without a word ("00013" to
      // "0001"); a number too long is refused with the reason instead.
      value: entry.points[i],
      placeholder: "0",
      enterkeyhint: i === n - 1 ? "done" : "next",
      autocomplete: "off",
      dataset: { field: "points", index: i },
    });
    pointInputs.push(input);
    let bonusButton = null;
    if (bonusOn) {
      bonusButton = h("button", {
        type: "button",
        class: "bonus-toggle",
        dataset: { action: "toggle-bonus", index: i },
      });
      bonusButtons.push(bonusButton);
    }
    // The boxes go under the name, as one, when a word of the name does not fit beside them.
    return h(
      "li",
      { class: "entry-row" },
      h("label", { for: `points-${i}`, dataset: { fit: "" } }, name),
      h("span", { class: "entry-boxes" }, input, bonusButton),
    );
  });

  const moonPanel = h("div", { id: "moon-panel", class: "moon-panel", hidden: true, dataset: { panel: "moon" } });
  const addButton = h("button", { type: "submit", class: "primary", dataset: { action: "add-round" } });
  const cancelButton = fixing
    ? h("button", { type: "button", class: "secondary", dataset: { action: "cancel-fix" } }, "Keep it as it was")
    : null;
  const moonButton = h(
    "button",
    {
      type: "button",
      class: "secondary moon",
      dataset: { action: "shoot-moon" },
      "aria-expanded": "false",
      "aria-controls": "moon-panel",
    },
    h("span", { "aria-hidden": "true" }, "☾ "),
    "Shot the moon",
  );

  const bonusHint = bonusOn
    ? ` Tap ${BONUS_SHORT[game.settings.bonus]} beside whoever took the ${decks > 1 ? cards : card}.`
    : "";
  const teamHint = partnership ? " Partners' points are added together." : "";
  const hint = h("p", { class: "hint" });
  const list = h("ol", { class: `entry-list${n > 6 ? " many" : ""}`, "aria-labelledby": "entry-title" }, rows);
  const form = h(
    "form",
    { class: "entry", novalidate: true, dataset: { form: "round" } },
    h("h2", { id: "entry-title" }, fixing ? `Fix round ${roundNumber}` : `Points in round ${roundNumber}`),
    hint,
    moonPanel,
    list,
    sumCheck,
    h("div", { class: "actions", dataset: { slot: "status" } }, addButton, moonButton, cancelButton),
  );

  function drawBonus() {
    bonusButtons.forEach((button, i) => {
      const count = entry.bonus[i];
      const label = BONUS_SHORT[game.settings.bonus];
      // "J♦ −20" for both copies: "J♦ −20 ×2" ran past the button's edge at six players.
      button.textContent = count ? `${label} −${10 * count}` : label;
      button.setAttribute("aria-pressed", count ? "true" : "false");
      // Both copies marked at other seats: this one has none to offer until one is taken back.
      const offered = bonusOffered(entry.bonus, i, decks);
      button.disabled = !offered;
      button.title = offered ? "" : `Both ${cards} are marked at other seats: tap one of those to take it back first.`;
      button.setAttribute(
        "aria-label",
        decks > 1 ? `${game.players[i]} took ${count} of the ${decks} ${cards}` : `${game.players[i]} took the ${card}`,
      );
      button.classList.toggle("on", count > 0);
    });
  }

  function drawMoon() {
    const on = Boolean(entry.moon);
    moonPanel.hidden = !on;
    moonButton.setAttribute("aria-expanded", String(on));
    moonButton.lastChild.textContent = on ? "Not a moon" : "Shot the moon";
    moonButton.dataset.action = on ? "cancel-moon" : "shoot-moon";
    if (fixing) addButton.textContent = `Save round ${roundNumber}`;
    else addButton.textContent = on ? "Add the moon round" : "Add round";
    form.classList.toggle("moon-mode", on);
    // A moon needs no points typed: the shooter took them all. Only the bonus card is asked.
    list.hidden = on && !bonusOn;
    if (!list.hidden) fitWords(list); // shown again: its names had no width to fit while hidden
    // The points typed before the moon was pressed are not scored: the boxes show none (a
    // greyed 13 beside a moon read as points that would count), and get them back after
    // "Not a moon".
    pointInputs.forEach((input, i) => {
      input.disabled = on;
      input.value = on ? "" : entry.points[i];
      input.placeholder = on ? "–" : "0";
    });
    hint.textContent = on
      ? `The shooter took every heart and ${decks > 1 ? "both queens" : "the queen"} of spades.${bonusHint}`
      : `Hearts 1 each, ${decks > 1 ? "both queens of spades 13 each" : "queen of spades 13"}: a round holds ${full}. Leave a box empty for 0.${teamHint}${bonusHint}`;
    if (!on) {
      clear(moonPanel);
      return;
    }
    const choose = game.settings.moonRule === "choose";
    const amount = moonAmount(game, entry.moon.sun);
    clear(
      moonPanel,
      h(
        "fieldset",
        {},
        h("legend", {}, partnership ? "Which team shot the moon?" : "Who shot the moon?"),
        h(
          "div",
          { class: "choices grid" },
          // In partnership a team shoots: one choice per team, named by its two players.
          teamLeads(game).map((i) =>
            h(
              "label",
              { class: "choice" },
              h("input", {
                type: "radio",
                name: "moon-shooter",
                value: i,
                checked: entry.moon.shooter === i,
                dataset: { field: "moon-shooter" },
              }),
              h("span", { class: "who" }, partnership ? teamWords(game, i) : game.players[i]),
            ),
          ),
        ),
      ),
      game.settings.sun
        ? h(
            "label",
            { class: "choice" },
            h("input", {
              type: "checkbox",
              name: "moon-sun",
              checked: Boolean(entry.moon.sun),
              dataset: { field: "moon-sun" },
            }),
            h("span", {}, `…and took every trick: the sun, ${2 * full}`),
          )
        : null,
      choose
        ? h(
            "fieldset",
            {},
            h("legend", {}, "The shooter chooses"),
            h(
              "div",
              { class: "choices" },
              [
                ["add", partnership ? `The other team gets ${amount} each` : `Everyone else gets ${amount}`],
                ["subtract", partnership ? `Take ${amount} off each partner` : `Take ${amount} off the shooter`],
              ].map(([value, label]) =>
                h(
                  "label",
                  { class: "choice" },
                  h("input", {
                    type: "radio",
                    name: "moon-choice",
                    value,
                    checked: entry.moon.choice === value,
                    dataset: { field: "moon-choice" },
                  }),
                  h("span", {}, label),
                ),
              ),
            ),
          )
        : null,
    );
  }

  /** Preselect what a sensible shooter would choose (until the table picks for itself). */
  function suggest() {
    if (game.settings.moonRule !== "choose" || entry.moon?.picked || !Number.isInteger(entry.moon?.shooter)) return;
    entry.moon.choice = suggestedChoice(game, before, entry);
  }

  function drawCheck() {
    const check = checkRound(game, entry);
    const touched = !isBlankEntry(entry);
    // "Shot the moon" just pressed: who shot it is the next thing to ask, not a mistake (it
    // opened with "✗ Pick who shot the moon." in the warning's colours).
    const asking = check.asks;
    sumCheck.classList.toggle("ok", check.ok);
    sumCheck.classList.toggle("bad", touched && !check.ok && !asking);
    sumCheck.dataset.ok = String(check.ok);
    pointInputs.forEach((input, i) => input.setAttribute("aria-invalid", String(check.player === i)));
    let message = check.message;
    if (check.ok && entry.moon) {
      // Say what the moon will do under the chosen rule before it is added.
      message = scoreRound(game, before, entry).notes.join(" ");
    }
    if (!touched) sumCheck.textContent = `A round holds ${full} points.`;
    else if (asking) sumCheck.textContent = message;
    else sumCheck.textContent = `${check.ok ? "✓ " : "✗ "}${message}`;
  }

  // Once the page draws the boxes again (another tab's change, a fix begun), this form is
  // gone, but Chromium still fires at it: a \`change\` for the box that had the cursor, as it
  // is taken away. That is about boxes no longer shown, and must not be saved over the ones
  // that replaced them.
  let open = true;
  const listen = (type, handler) => form.addEventListener(type, (event) => open && handler(event));

  function changed() {
    sumCheck.hidden = false;
    drawCheck();
    onChange(structuredClone(entry));
  }

  listen("input", (event) => {
    const target = event.target;
    if (target.dataset.field === "points") entry.points[Number(target.dataset.index)] = target.value;
    changed();
  });
  listen("change", (event) => {
    const target = event.target;
    if (target.dataset.field === "moon-shooter") entry.moon.shooter = Number(target.value);
    if (target.dataset.field === "moon-sun") entry.moon.sun = target.checked;
    if (target.dataset.field === "moon-choice") {
      entry.moon.choice = target.value;
      entry.moon.picked = true;
    }
    if (target.dataset.field === "moon-shooter" || target.dataset.field === "moon-sun") {
      suggest();
      drawMoon(); // the choices name the amount, and one may now be preselected
      // The new panel's twin of the box just used (the sun's box is the only one of its kind).
      const twin = target.type === "checkbox" ? "" : `[value="${target.value}"]`;
      moonPanel.querySelector(`input[data-field="${target.dataset.field}"]${twin}`)?.focus();
    }
    changed();
  });
  listen("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const action = button.dataset.action;
    if (action === "toggle-bonus") {
      const i = Number(button.dataset.index);
      // One deck: the card moves here, or off when it was here. Two decks: one more while a
      // copy is unmarked, then back to 0.
      entry.bonus = tapBonus(entry.bonus, i, decks);
      drawBonus();
      if (entry.moon) {
        // The bonus card moves the totals, and so which choice is the sensible one.
        suggest();
        drawMoon();
      }
      changed();
    } else if (action === "shoot-moon") {
      entry.moon = { shooter: null, choice: null, sun: false };
      drawMoon();
      changed();
      moonPanel.querySelector("input")?.focus();
    } else if (action === "cancel-moon") {
      entry.moon = null;
      drawMoon();
      changed();
      pointInputs[0]?.focus();
    }
  });
  listen("keydown", (event) => {
    // Enter moves to the next player's box; on the last box it adds the round.
    if (event.key !== "Enter" || event.target.dataset.field !== "points") return;
    const next = pointInputs[Number(event.target.dataset.index) + 1];
    if (next) {
      event.preventDefault();
      next.focus();
      next.select();
    }
  });
  listen("submit", (event) => {
    event.preventDefault();
    onSubmit(structuredClone(entry));
  });

  suggest(); // the totals before this round may have changed since the boxes were saved
  drawBonus();
  drawMoon();
  drawCheck();
  clear(root, form);
  return {
    focus: (options) => (entry.moon ? moonPanel.querySelector("input") : pointInputs[0])?.focus(options),
    // After a refusal the status line says why; the live line would only repeat it.
    refused: () => {
      sumCheck.hidden = true;
    },
    /** Called before the boxes are drawn again or taken away: from now on they are deaf. */
    close: () => {
      open = false;
    },
  };
}
