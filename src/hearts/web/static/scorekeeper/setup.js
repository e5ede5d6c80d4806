// The setup screen: players in seating order and the rules agreed before the first deal.

import { h, clear } from "./dom.js";
import {
  BONUS_CARDS,
  EXACT_TARGET,
  TIES,
  MAX_PLAYERS,
  MAX_NAME,
  MAX_TARGET,
  MIN_PLAYERS,
  MIN_TARGET,
  MOON_RULES,
  PARTNERSHIP_PLAYERS,
  defaultSettings,
  passingOptions,
  pointsPerRound,
} from "./model.js";

/**
 * Render the setup form into `root`.
 * prefill: {names, settings}; onStart(names, settings) starts the game (it may throw an Error
 * whose message is shown by the caller); onChoose(playerCount, settings) hears every change of
 * the players' number or the rules, as they stand on the screen (the target as typed).
 */
export function renderSetup(root, prefill, onStart, onChoose = () => {}) {
  let names = prefill?.names?.length ? [...prefill.names] : ["", "", "", ""];
  let settings = { ...defaultSettings(names.length), ...(prefill?.settings ?? {}) };
  // Passing follows the number of players (two decks usually pass nothing) until someone picks.
  let passingChosen = Boolean(prefill?.settings);
  let decksShown = names.length <= 5 ? 1 : 2;

  const playerList = h("ol", { class: "name-list", dataset: { list: "players" } });
  const problem = h("p", { class: "field-problem", id: "setup-problem" });
  const addButton = h(
    "button",
    { type: "button", class: "secondary", dataset: { action: "add-player" } },
    "+ Add a player",
  );
  const countNote = h("p", { class: "hint", dataset: { note: "decks" } });
  const passingSelect = h("select", { id: "setup-passing", dataset: { field: "passing" } });
  const moonGroup = h("div", { class: "choices", role: "radiogroup", "aria-labelledby": "moon-legend" });
  const checkbox = (field, label) =>
    h(
      "label",
      { class: "choice" },
      h("input", { type: "checkbox", id: `setup-${field}`, checked: Boolean(settings[field]), dataset: { field } }),
      h("span", {}, label),
    );
  const sunChoice = checkbox("sun", "");
  const partnershipChoice = checkbox("partnership", "");

  function readNames() {
    names = [...playerList.querySelectorAll("input")].map((input) => input.value);
  }

  function drawPlayers(focusIndex = null) {
    clear(
      playerList,
      names.map((name, i) =>
        h(
          "li",
          { class: "name-row" },
          h("label", { for: `name-${i}` }, `Player ${i + 1}`),
          h("input", {
            id: `name-${i}`,
            type: "text",
            value: name,
            // No maxlength: a browser would cut a long name without a word. A name over
            // MAX_NAME is refused at Start with a sentence, and its box is marked.
            "aria-describedby": "name-limit",
            autocomplete: "off",
            autocapitalize: "words",
            spellcheck: "false",
            enterkeyhint: i === names.length - 1 ? "done" : "next",
            placeholder: "Name",
            dataset: { field: "player-name", index: i },
          }),
          h(
            "button",
            {
              type: "button",
              class: "icon-button",
              "aria-label": `Remove player ${i + 1}${name ? ` (${name})` : ""}`,
              disabled: names.length <= MIN_PLAYERS,
              dataset: { action: "remove-player", index: i },
            },
            "✕",
          ),
        ),
      ),
    );
    addButton.disabled = names.length >= MAX_PLAYERS;
    const points = pointsPerRound(names.length);
    countNote.textContent =
      names.length <= 5
        ? `${names.length} players: one deck, ${points} points a round.`
        : `${names.length} players: two decks shuffled together (Cancellation Hearts), ${points} points a round.`;
    drawPassing();
    drawMoonRules();
    drawExtras();
    if (focusIndex !== null) playerList.querySelectorAll("input")[focusIndex]?.focus();
    chosen();
  }

  /** Tell the page the choices on the screen (the target as typed: a number, or NaN). */
  function chosen() {
    const typed = targetInput.value.trim();
    onChoose(names.length, { ...settings, target: /^[0-9]+$/.test(typed) ? Number(typed) : NaN });
  }

  function drawPassing() {
    const options = passingOptions(names.length);
    const decks = names.length <= 5 ? 1 : 2;
    if (decks !== decksShown) passingChosen = false;
    decksShown = decks;
    if (!passingChosen || !options.some((o) => o.value === settings.passing)) {
      settings.passing = options[0].value;
    }
    clear(
      passingSelect,
      options.map((o) => h("option", { value: o.value, selected: o.value === settings.passing }, o.label)),
    );
  }

  function drawExtras() {
    const points = pointsPerRound(names.length);
    sunChoice.lastChild.textContent = `Shooting the sun: taking every trick counts ${2 * points}, scored like a moon`;
    // Partnership is a four-player game: partners sit across, players 1 and 3 against 2 and 4.
    const four = names.length === PARTNERSHIP_PLAYERS;
    partnershipChoice.hidden = !four;
    if (!four) settings.partnership = false;
    partnershipChoice.querySelector("input").checked = settings.partnership;
    partnershipChoice.lastChild.textContent = "Partnership: players 1 and 3 against 2 and 4, partners' points added together";
  }

  function drawMoonRules() {
    const points = String(pointsPerRound(names.length));
    clear(
      moonGroup,
      Object.entries(MOON_RULES).map(([value, label]) =>
        h(
          "label",
          { class: "choice" },
          h("input", {
            type: "radio",
            name: "moon-rule",
            value,
            checked: settings.moonRule === value,
            dataset: { field: "moon-rule" },
          }),
          h("span", {}, label.replaceAll("26", points)),
        ),
      ),
    );
  }

  function select(field, id, options, current) {
    return h(
      "select",
      { id, dataset: { field } },
      Object.entries(options).map(([value, label]) => h("option", { value, selected: value === current }, label)),
    );
  }

  const targetInput = h("input", {
    id: "setup-target",
    type: "number",
    inputmode: "numeric",
    min: MIN_TARGET,
    max: MAX_TARGET,
    step: 1,
    value: settings.target,
    dataset: { field: "target" },
  });
  const bonusSelect = select("bonus", "setup-bonus", BONUS_CARDS, settings.bonus);
  const exactSelect = select("exact", "setup-exact", EXACT_TARGET, settings.exact);
  const tieSelect = select("tie", "setup-tie", TIES, settings.tie);

  const form = h(
    "form",
    { class: "setup", novalidate: true, dataset: { form: "setup" } },
    h(
      "fieldset",
      {},
      h("legend", {}, "Players"),
      h("p", { class: "hint" }, "In seating order, clockwise, starting with the first dealer."),
      playerList,
      h("p", { class: "hint", id: "name-limit" }, `Names up to ${MAX_NAME} letters.`),
      addButton,
      countNote,
    ),
    h(
      "fieldset",
      {},
      h("legend", {}, "Rules for this game"),
      h(
        "div",
        { class: "field" },
        h("label", { for: "setup-target" }, "Game ends at"),
        h("div", { class: "with-unit" }, targetInput, h("span", {}, "points")),
      ),
      h(
        "fieldset",
        { class: "field inner" },
        h("legend", { id: "moon-legend" }, "Shooting the moon"),
        moonGroup,
        h("div", { class: "choices extra" }, sunChoice),
      ),
      h("div", { class: "field choices" }, partnershipChoice),
      h("div", { class: "field" }, h("label", { for: "setup-bonus" }, "Bonus card"), bonusSelect),
      h("div", { class: "field" }, h("label", { for: "setup-passing" }, "Passing"), passingSelect),
      h(
        "div",
        { class: "field" },
        h("label", { for: "setup-exact" }, "Landing exactly on the target"),
        exactSelect,
      ),
      h("div", { class: "field" }, h("label", { for: "setup-tie" }, "A tie for the lowest total at the end"), tieSelect),
    ),
    h(
      "div",
      { class: "actions", dataset: { slot: "status" } },
      h("button", { type: "submit", class: "primary", dataset: { action: "start-game" } }, "Start the game"),
    ),
  );

  form.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    if (button.dataset.action === "add-player" && names.length < MAX_PLAYERS) {
      readNames();
      names.push("");
      drawPlayers(names.length - 1);
    } else if (button.dataset.action === "remove-player" && names.length > MIN_PLAYERS) {
      readNames();
      names.splice(Number(button.dataset.index), 1);
      drawPlayers(Math.min(Number(button.dataset.index), names.length - 1));
    }
  });
  form.addEventListener("change", (event) => {
    const field = event.target.dataset.field;
    if (field === "moon-rule") settings.moonRule = event.target.value;
    if (field === "passing") {
      settings.passing = event.target.value;
      passingChosen = true;
    }
    if (field === "bonus") settings.bonus = event.target.value;
    if (field === "exact") settings.exact = event.target.value;
    if (field === "tie") settings.tie = event.target.value;
    if (field === "sun") settings.sun = event.target.checked;
    if (field === "partnership") settings.partnership = event.target.checked;
    chosen();
  });
  targetInput.addEventListener("input", chosen);
  form.addEventListener("keydown", (event) => {
    // Enter in a name moves on to the next name instead of starting a half-named game.
    if (event.key !== "Enter" || event.target.dataset.field !== "player-name") return;
    const inputs = [...playerList.querySelectorAll("input")];
    const next = inputs[inputs.indexOf(event.target) + 1];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    readNames();
    // Plain digits only: Number() also reads "1e3" as 1000.
    const typed = targetInput.value.trim();
    settings.target = /^[0-9]+$/.test(typed) ? Number(typed) : NaN;
    onStart([...names], { ...settings });
  });

  drawPlayers();
  // A new game after one played starts from its players and rules, which a table usually
  // keeps; said at the top, with the way back to the standard game and no names.
  const kept = prefill?.settings
    ? h(
        "div",
        { class: "kept", dataset: { note: "kept" } },
        h("p", {}, "The last game's players and rules are filled in: change what you need."),
        h(
          "button",
          { type: "button", class: "secondary", dataset: { action: "fresh-setup" } },
          "Clear names and rules",
        ),
      )
    : null;
  clear(root, h("h2", {}, "New game"), kept, form);
  const firstEmpty = [...playerList.querySelectorAll("input")].find((input) => !input.value);
  return {
    focus: () => (firstEmpty ?? playerList.querySelector("input"))?.focus(),
    /** Mark the box a refusal was about (a name's, or the target's; or none), say why under
     * it (on a phone the status line is far below, by the Start button), and put the cursor
     * in it. */
    mark: (index, field, reason) => {
      const nameInputs = [...playerList.querySelectorAll("input")];
      nameInputs.forEach((input, i) => {
        input.setAttribute("aria-invalid", String(i === index));
        input.setAttribute("aria-describedby", "name-limit");
      });
      targetInput.setAttribute("aria-invalid", String(field === "target"));
      targetInput.removeAttribute("aria-describedby");
      const box = Number.isInteger(index) ? nameInputs[index] : field === "target" ? targetInput : null;
      problem.remove();
      if (!box) return;
      problem.textContent = reason;
      box.closest(".name-row, .field").append(problem);
      box.setAttribute("aria-describedby", `setup-problem ${box.getAttribute("aria-describedby") ?? ""}`.trim());
      box.focus();
    },
  };
}
