// The start screen: meet the opponents, choose how sharp they are, the game length, house
// rules and the speed of play. Every choice is remembered in this browser.

import { h, clear, $$ } from "./dom.js";
import { face } from "./faces.js";
import { SPEEDS } from "./prefs.js";

const SEAT_WORDS = { 1: "On your left", 2: "Across", 3: "On your right" };
const LENGTHS = [100, 50];

export function renderSetup(root, { options, prefs, canContinue, onStart, onContinue, onChange }) {
  const levelNames = options.levels.map((l) => l.name);
  const change = () => onChange(prefs);

  const opponents = options.opponents.map((o, i) => {
    const group = `level-${o.seat}`;
    return h("li", { class: "opponent" },
      face(o.face, "pleased"),
      h("div", {},
        h("h3", {}, o.name, h("span", { class: "seat-word" }, ` · ${SEAT_WORDS[o.seat]}`)),
        h("p", { class: "blurb" }, o.blurb),
        h("fieldset", { class: "segmented small", "aria-label": `How sharp is ${o.name}?` },
          levelNames.map((level) => h("label", {},
            h("input", {
              type: "radio", name: group, value: level, checked: prefs.levels[i] === level,
              onchange: () => { prefs.levels[i] = level; syncAll(); change(); },
            }), h("span", {}, capital(level)))))));
  });

  const allButtons = h("fieldset", { class: "segmented" },
    h("legend", {}, "How sharp are they?"),
    levelNames.map((level) => h("label", { title: options.levels.find((l) => l.name === level).help },
      h("input", {
        type: "radio", name: "level-all", value: level,
        checked: prefs.levels.every((l) => l === level),
        onchange: () => {
          prefs.levels = [level, level, level];
          for (const input of $$("input[type=radio][name^='level-']", root)) {
            if (input.name !== "level-all") input.checked = input.value === level;
          }
          syncAll();
          change();
        },
      }), h("span", {}, capital(level)))),
    h("p", { class: "hint", "data-region": "level-help" }, levelHelp(options, prefs)));

  function syncAll() {
    for (const input of $$("input[name=level-all]", root)) {
      input.checked = prefs.levels.every((l) => l === input.value);
    }
    const help = root.querySelector("[data-region=level-help]");
    if (help) help.textContent = levelHelp(options, prefs);
  }

  const custom = !LENGTHS.includes(prefs.target);
  const targetInput = h("input", {
    type: "number", min: 1, max: 1000, step: 1, inputmode: "numeric",
    value: custom ? prefs.target : "", placeholder: "e.g. 75", "aria-label": "Other game length",
    oninput: (e) => {
      const n = Number(e.target.value);
      if (Number.isInteger(n) && n > 0) {
        prefs.target = n;
        $$("input[name=length]", root).forEach((r) => { r.checked = r.value === "other"; });
        change();
      }
    },
  });
  const length = h("fieldset", { class: "segmented" },
    h("legend", {}, "Game length"),
    LENGTHS.map((n) => h("label", {},
      h("input", {
        type: "radio", name: "length", value: n, checked: prefs.target === n,
        onchange: () => { prefs.target = n; targetInput.value = ""; change(); },
      }), h("span", {}, `To ${n}`))),
    h("label", { class: "other" },
      h("input", { type: "radio", name: "length", value: "other", checked: custom,
        onchange: () => targetInput.focus() }),
      h("span", {}, "Other"), targetInput));

  const ruleList = h("div", { class: "rule-list" });
  const presetBox = h("fieldset", { class: "segmented wrap" },
    h("legend", {}, "House rules"),
    options.presets.map((preset) => h("label", { title: preset.help },
      h("input", {
        type: "radio", name: "preset", value: preset.name, checked: prefs.preset === preset.name,
        onchange: () => {
          prefs.preset = preset.name;
          prefs.rules = { ...preset.rules };
          if (preset.rules.target_score) {
            prefs.target = preset.rules.target_score;
            delete prefs.rules.target_score;
          }
          change();
          renderSetup(root, { options, prefs, canContinue, onStart, onContinue, onChange });
        },
      }), h("span", {}, preset.label))),
    h("p", { class: "hint" }, presetHelp(options, prefs)));

  function drawRules() {
    clear(ruleList, options.rules
      .filter((rule) => rule.kind !== "number")
      .map((rule) => ruleControl(rule, options.defaults, prefs, () => {
        prefs.preset = "custom";
        for (const r of $$("input[name=preset]", root)) r.checked = false;
        change();
      })));
  }
  drawRules();

  const speed = h("fieldset", { class: "segmented" },
    h("legend", {}, "Speed of play"),
    Object.entries(SPEEDS).map(([key, value]) => h("label", {},
      h("input", {
        type: "radio", name: "speed", value: key, checked: prefs.speed === key,
        onchange: () => { prefs.speed = key; change(); },
      }), h("span", {}, value.label))));

  clear(root,
    h("header", { class: "hero" },
      h("h1", {}, "Hearts"),
      h("p", { class: "tagline" }, "Keep clear of hearts and the queen of spades. Lowest score wins.")),
    canContinue
      ? h("button", { class: "primary wide", type: "button", "data-action": "continue", onclick: onContinue },
        "Continue game")
      : null,
    h("section", { class: "panel", "aria-labelledby": "meet" },
      h("h2", { id: "meet" }, "Your table"),
      h("ul", { class: "opponents" }, opponents),
      allButtons),
    h("section", { class: "panel" }, length, speed),
    h("section", { class: "panel" },
      presetBox,
      h("details", { class: "all-rules" },
        h("summary", {}, "Every house rule"),
        ruleList)),
    h("button", {
      class: canContinue ? "wide" : "primary wide", type: "button", "data-action": "new-game",
      onclick: () => onStart(),
    }, canContinue ? "Start a new game" : "Deal the cards"),
    h("nav", { class: "links", "aria-label": "More" },
      h("a", { href: "/rules" }, "How to play"),
      h("a", { href: "/scorekeeper" }, "Scorekeeper for real cards"),
      h("a", { href: "/sheets/rules.pdf" }, "Rule sheet (PDF)"),
      h("a", { href: "/sheets/score.pdf" }, "Score sheet (PDF)")));
}

function levelHelp(options, prefs) {
  const levels = new Set(prefs.levels);
  if (levels.size > 1) return "A mixed table: each player as chosen above.";
  const level = options.levels.find((l) => l.name === prefs.levels[0]);
  return level ? `${capital(level.name)}: ${level.help} Or choose for each player above.` : "";
}

function presetHelp(options, prefs) {
  const preset = options.presets.find((p) => p.name === prefs.preset);
  return preset ? preset.help : "Your own mix of house rules.";
}

function ruleControl(rule, defaults, prefs, changed) {
  const current = rule.field in prefs.rules ? prefs.rules[rule.field] : defaults[rule.field];
  const id = `rule-${rule.field}`;
  const set = (value) => {
    if (JSON.stringify(value) === JSON.stringify(defaults[rule.field])) delete prefs.rules[rule.field];
    else prefs.rules[rule.field] = value;
    changed();
  };
  let control;
  if (rule.kind === "toggle") {
    control = h("input", { type: "checkbox", id, checked: Boolean(current),
      onchange: (e) => set(e.target.checked) });
    return h("div", { class: "rule toggle" }, control,
      h("label", { for: id }, h("strong", {}, rule.label), h("span", { class: "help" }, rule.help)));
  }
  if (rule.kind === "choice") {
    control = h("select", { id, onchange: (e) => set(JSON.parse(e.target.value)) },
      rule.choices.map((choice) => h("option", {
        value: JSON.stringify(choice.value),
        selected: JSON.stringify(choice.value) === JSON.stringify(current),
      }, choice.label)));
    return h("div", { class: "rule choice" },
      h("label", { for: id }, h("strong", {}, rule.label), h("span", { class: "help" }, rule.help)), control);
  }
  return h("div", { class: "rule fixed" }, h("strong", {}, rule.label), h("span", { class: "help" }, rule.help));
}

function capital(word) {
  return word[0].toUpperCase() + word.slice(1);
}
