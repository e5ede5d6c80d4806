// The house rules on the start screen: which are offered at a table, what the engine refuses
// of them together (each dimmed or marked with its reason at the rule), one rule's control,
// and the line that says the rules that will be dealt. Pure functions over the table's
// options and the person's choices; setup.js lays them out.

import { h } from "./dom.js";

/** A rule as offered at this table size: a toggle the engine refuses there is left out, a
 * choice keeps only the values it accepts. */
export function offeredRule(rule, size) {
  const offered = size.offered[rule.field];
  if (rule.kind === "toggle") return offered ? rule : null;
  if (rule.kind === "choice") {
    const choices = rule.choices.filter((_, i) => offered.includes(i));
    return choices.length > 1 ? { ...rule, choices } : null;
  }
  return rule;
}

/** Lay aside remembered house rules this table size does not allow, and take back those
 * laid aside at another size that this one allows (the kitty ticked at five players is
 * still ticked after a look at six). */
export function keepOffered(prefs, options, size) {
  const aside = prefs.rulesAside || {};
  const allowed = (rule, chosen) => {
    const offered = size.offered[rule.field];
    const value = JSON.stringify(chosen);
    return rule.kind === "toggle" ? offered || !chosen
      : rule.kind === "choice" ? rule.choices.some((c, i) => offered.includes(i) && JSON.stringify(c.value) === value)
        : rule.field !== "players";
  };
  for (const rule of options.rules) {
    if (rule.field in aside && !(rule.field in prefs.rules) && allowed(rule, aside[rule.field])) {
      prefs.rules[rule.field] = aside[rule.field];
      delete aside[rule.field];
    }
    if (rule.field in prefs.rules && !allowed(rule, prefs.rules[rule.field])) {
      aside[rule.field] = prefs.rules[rule.field];
      delete prefs.rules[rule.field];
    }
  }
  prefs.rulesAside = aside;
}

/** What the chosen house rules change, and the length that will be played (the length is
 * its own choice: a preset never hides what it changes behind it). A mix of one's own is
 * listed rule by rule, as `shown` words them at this table. */
export function presetHelp(presets, prefs, shown, lengthProblem) {
  const preset = presets.find((p) => p.name === prefs.preset);
  const length = lengthProblem ? "The game length is still to be chosen." : `Played to ${prefs.target}.`;
  if (preset) return `${preset.help} ${length}`;
  const changed = shown.filter((rule) => rule.field in prefs.rules).map((rule) => {
    const value = prefs.rules[rule.field];
    if (rule.kind === "toggle") return value ? rule.label : `${rule.label}: off`;
    const choice = rule.choices.find((c) => JSON.stringify(c.value) === JSON.stringify(value));
    return `${rule.label}: ${choice ? choice.label : value}`;
  });
  return changed.length ? `Your own mix of house rules: ${changed.join("; ")}. ${length}`
    : `The usual rules, with no house rule. ${length}`;
}

/** Whether two sets of house rules are the same choices (a preset's and the screen's). */
export function sameRules(a, b) {
  const keys = (rules) => Object.keys(rules).filter((k) => k !== "target_score").sort();
  const ka = keys(a);
  return JSON.stringify(ka) === JSON.stringify(keys(b))
    && ka.every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

/** The value a rule has as the screen stands: chosen, else the table's default. */
export function chosen(field, prefs, defaults) {
  return field in prefs.rules ? prefs.rules[field] : defaults[field];
}

/** Why the engine refuses `field` at `value` with the other choices as they stand, and what
 * would allow it ({why, allow}), or null when it takes it. Read off the table's `conflicts` (the engine's own
 * refusals, pair by pair, listed by the server); `target` is null while the game length
 * box holds no length that counts. */
export function refusal(size, prefs, rules, field, value, target) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  for (const c of size.conflicts || []) {
    if (c.field !== field || !same(c.value, value)) continue;
    if (c.when === "target_score") {
      if (target !== null && target < c.least) return { why: c.why, allow: "" };
    } else if (same(chosen(c.when, prefs, size.defaults), c.is)) {
      const other = rules.find((r) => r.field === c.when);
      const allow = other?.kind === "toggle"
        ? `${c.is ? "Untick" : "Tick"} \u201c${other.label}\u201d first.` : "";
      return { why: c.why, allow };
    }
  }
  return null;
}

/** A refusal in words at the rule: why, and what would allow it. */
function refusalWords(refused) {
  return refused ? [refused.why, refused.allow].filter(Boolean).join(" ") : "";
}

export function lower(sentence) {
  return sentence[0].toLowerCase() + sentence.slice(1);
}

/** One house rule's control. A choice the engine refuses with the others as they stand is
 * dimmed with its reason beside it (`refused(field, value)`, "" when allowed), as a dimmed
 * card says why it cannot go; a choice made that the engine refuses (one chosen before the
 * rule it depends on changed) is marked wrong with its reason, and stays as it is. */
export function ruleControl(rule, defaults, prefs, refused, changed) {
  const current = chosen(rule.field, prefs, defaults);
  const id = `rule-${rule.field}`;
  const fault = refusalWords(refused(rule.field, current));
  const note = (text, problem) => (text
    ? h("span", { class: `help rule-why${problem ? " problem" : ""}`, id: `${id}-why`, "data-region": "rule-why" }, text)
    : null);
  const set = (value) => {
    if (JSON.stringify(value) === JSON.stringify(defaults[rule.field])) delete prefs.rules[rule.field];
    else prefs.rules[rule.field] = value;
    if (prefs.rulesAside) delete prefs.rulesAside[rule.field]; // chosen again: the new choice
    changed();
  };
  let control;
  if (rule.kind === "toggle") {
    const dimmed = fault ? "" : refusalWords(refused(rule.field, !current));
    control = h("input", { type: "checkbox", id, checked: Boolean(current),
      "aria-invalid": fault ? "true" : "false", "aria-disabled": dimmed ? "true" : "false",
      "aria-describedby": fault || dimmed ? `${id}-why` : null,
      // aria-disabled, not disabled: dimmed, it stays in the Tab order and says why.
      onclick: (e) => { if (dimmed) e.preventDefault(); },
      onchange: (e) => set(e.target.checked) });
    return h("div", { class: `rule toggle${dimmed ? " dimmed" : ""}` }, control,
      h("label", { for: id }, h("strong", {}, rule.label), h("span", { class: "help" }, rule.help),
        note(fault || dimmed, Boolean(fault))));
  }
  if (rule.kind === "choice") {
    const same = (value) => JSON.stringify(value) === JSON.stringify(current);
    const dimmed = rule.choices.filter((choice) => !same(choice.value) && refused(rule.field, choice.value));
    const why = fault || dimmed.map((choice) =>
      `\u201c${choice.label}\u201d cannot be chosen now. ${refusalWords(refused(rule.field, choice.value))}`).join(" ");
    control = h("select", { id, onchange: (e) => set(JSON.parse(e.target.value)),
      "aria-invalid": fault ? "true" : "false", "aria-describedby": why ? `${id}-why` : null },
      rule.choices.map((choice) => h("option", {
        value: JSON.stringify(choice.value),
        selected: same(choice.value),
        disabled: dimmed.includes(choice),
      }, choice.label)));
    return h("div", { class: "rule choice" },
      h("label", { for: id }, h("strong", {}, rule.label), h("span", { class: "help" }, rule.help),
        note(why, Boolean(fault))), control);
  }
  return h("div", { class: "rule fixed" }, h("strong", {}, rule.label), h("span", { class: "help" }, rule.help));
}
