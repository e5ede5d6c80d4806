// The start screen: meet the opponents, choose how sharp they are, the game length, house
// rules and the speed of play. Every choice is remembered in this browser.

import { h, clear, $$ } from "./dom.js";
import { api } from "./api.js";
import { spoken } from "./cards.js";
import { face } from "./faces.js";
import { SPEEDS } from "./prefs.js";
import { themeControl } from "./theme.js";
import { dotted, invitePanel, waitingWords } from "./friends.js";
import { houseRulesShort, named, neverPasses, NO_PASSING, playedWhen, score, sideWord } from "./words.js";
import {
  chosen, keepOffered, lower, offeredRule, presetHelp, refusal, ruleControl, sameRules,
} from "./house-rules.js";

const LENGTHS = [100, 50];

export function renderSetup(root, args) {
  const { options, prefs, unfinished, listError, listComing, onRetry, onStart, onInvite, onContinue, onChange } = args;
  // A choice that redraws the screen (the table size, a preset) keeps the person where they
  // were: the same control focused (arrow keys go on through its group, a screen reader
  // stays put) and "Every house rule" as open as it was.
  const focused = focusedControl(root);
  const rulesOpen = Boolean(root.querySelector("details.all-rules")?.open);
  const canContinue = unfinished.some((game) => !game.damaged);
  // The table sizes come from the server (3 to 10), each with its line and the house rules
  // that make sense at it; the default size is the server's.
  const tables = options.tables || [];
  const size = tables.find((t) => t.players === prefs.players)
    || tables.find((t) => t.players === options.defaults.players);
  prefs.players = size.players;
  keepOffered(prefs, options, size);
  // The house rules and presets in this table's own numbers (a moon is 52 with two decks).
  // With the kitty chosen the table reads otherwise (nothing left out, so the 2♣ leads).
  const kittyOn = Boolean(prefs.rules.kitty && size.offered.kitty);
  const words = kittyOn ? size.kitty_rules : size.rules;
  const rules = options.rules.map((rule) => words?.[rule.field] ?? rule);
  const presets = options.presets.map((preset) => size.presets?.[preset.name] ?? preset);
  // A preset no longer offered (a length, once) with no house rule of its own is Standard.
  if (prefs.preset !== "custom" && !presets.some((p) => p.name === prefs.preset)
    && !Object.keys(prefs.rules).length) prefs.preset = "standard";
  const seated = options.opponents.slice(0, size.players - 1);
  // One level per opponent at the table.
  prefs.levels = seated.map((_, i) => prefs.levels[i] || options.levels[0].name);
  const levelNames = options.levels.map((l) => l.name);
  const change = () => onChange(prefs);
  // The opponents sit in seat order clockwise: the first on the left, the last on the right.
  const seatWord = (i) => sideWord(i + 1, size.players);

  const tableLine = h("p", { class: "hint", "data-region": "table-line" });
  const sizes = h("fieldset", { class: "segmented wrap table-size" },
    h("legend", {}, "Players at the table"),
    tables.map((t) => h("label", { "data-players": t.players, title: t.line },
      h("input", {
        type: "radio", name: "players", value: t.players, checked: t.players === size.players,
        onchange: () => { prefs.players = t.players; change(); renderSetup(root, args); },
      }), h("span", {}, String(t.players)))),
    tableLine);
  /** The table in a line, and that nobody passes at it when nobody does: the big tables'
   * own rule, or the house rule chosen. */
  function sayTable() {
    const cycle = chosen("pass_cycle", prefs, size.defaults);
    clear(tableLine, ...spoken(kittyOn ? size.kitty_line : size.line),
      neverPasses({ pass_cycle: cycle }) ? ` ${NO_PASSING}` : "");
  }
  sayTable();

  const opponents = seated.map((o, i) => {
    const group = `level-${i + 1}`; // the i-th computer player's level
    return h("li", { class: "opponent" },
      face(o.face, "pleased"),
      h("div", {},
        h("h3", {}, o.name, h("span", { class: "seat-word" }, ` · ${seatWord(i)}`)),
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
          prefs.levels = prefs.levels.map(() => level);
          for (const input of $$("input[type=radio][name^='level-']", root)) {
            if (input.name !== "level-all") input.checked = input.value === level;
          }
          syncAll();
          change();
        },
      }), h("span", {}, capital(level)))),
    h("p", { class: "hint", "data-region": "level-help" }, levelHelp(options, prefs)));
  // With "Invite friends" open the cards are the table the invite will seat, and each seat's
  // player is chosen in one place only: the panel's row for that seat.
  const invitedNote = h("p", { class: "hint invited-note", "data-region": "invite-levels" },
    "At a table with friends, choose who sits in each seat under \u201cInvite friends\u201d below.");
  const seatList = h("ul", { class: "opponents", "data-count": seated.length });

  function syncAll() {
    for (const input of $$("input[name=level-all]", root)) {
      input.checked = prefs.levels.every((l) => l === input.value);
    }
    const help = root.querySelector("[data-region=level-help]");
    if (help) help.textContent = levelHelp(options, prefs);
  }

  const custom = !LENGTHS.includes(prefs.target);
  const lengthNote = h("p", { class: "hint length-note", id: "length-note", "aria-live": "polite" });
  // What the box says is what counts: a number out of range marks the box and blocks Start,
  // never leaving an older value in force behind it.
  const targetInput = h("input", {
    type: "text", inputmode: "numeric", pattern: "[0-9]*", "data-min": options.target_range[0], "data-max": options.target_range[1],
    value: custom ? prefs.target : "", placeholder: "e.g. 75", "aria-label": "Other game length",
    "aria-describedby": "length-note",
    oninput: () => {
      $$("input[name=length]", root).forEach((r) => { r.checked = r.value === "other"; });
      readTarget();
    },
  });
  let lengthProblem = ""; // what keeps the game length from counting, or ""
  function readTarget({ quiet = false } = {}) {
    const other = $$("input[name=length]", root).some((r) => r.checked && r.value === "other");
    let problem = "";
    if (other) {
      const text = targetInput.value.trim();
      const low = Number(targetInput.dataset.min);
      const high = Number(targetInput.dataset.max);
      if (!/^[0-9]+$/.test(text)) problem = text ? "Type a whole number of points, like 75." : "Type the score that ends the game.";
      else if (Number(text) < low || Number(text) > high) problem = `Choose a game length from ${low} to ${high} points.`;
      else prefs.target = Number(text);
    }
    // Quiet (the box not typed in yet): what to do is said as a hint, not as a fault.
    const fault = Boolean(problem) && !quiet;
    targetInput.setAttribute("aria-invalid", fault ? "true" : "false");
    lengthNote.textContent = problem;
    lengthNote.classList.toggle("problem", fault);
    // Inviting makes a game too: it is held back the same (it made a game to 100 instead).
    lengthProblem = problem;
    drawRules(); // a rule may need a longer game (a total of exactly the target dropping to 50)
    invite?.refresh();
    sayStart();
    sayPreset();
    if (!problem) change();
  }
  const length = h("fieldset", { class: "segmented" },
    h("legend", {}, "Game length"),
    LENGTHS.map((n) => h("label", {},
      h("input", {
        type: "radio", name: "length", value: n, checked: prefs.target === n,
        onchange: () => { prefs.target = n; targetInput.value = ""; readTarget(); },
      }), h("span", {}, `To ${n}`))),
    h("label", { class: "other" },
      h("input", { type: "radio", name: "length", value: "other", checked: custom,
        // A tap on "Other" goes on into its box; arrow keys stay in the choice (the focus
        // left the group, and the next arrow moved the box's cursor instead). An empty box
        // is not marked wrong before anything is typed in it.
        onchange: () => {
          if (document.documentElement.dataset.input !== "keys") targetInput.focus();
          readTarget({ quiet: !targetInput.value.trim() });
        } }),
      h("span", {}, "Other"), targetInput),
    lengthNote);

  const ruleList = h("div", { class: "rule-list" });
  const presetBox = h("fieldset", { class: "segmented wrap" },
    h("legend", {}, "House rules"),
    presets.map((preset) => h("label", { title: preset.help },
      h("input", {
        type: "radio", name: "preset", value: preset.name, checked: prefs.preset === preset.name,
        onchange: () => {
          prefs.preset = preset.name;
          prefs.rules = { ...preset.rules };
          prefs.rulesAside = {}; // a preset chosen is the whole choice
          if (preset.rules.target_score) {
            prefs.target = preset.rules.target_score;
            delete prefs.rules.target_score;
          }
          change();
          renderSetup(root, args);
        },
      }), h("span", {}, preset.label))),
    h("p", { class: "hint", "data-region": "preset-help" }));

  // The rules shown at this table, and what the engine refuses of them together, asked with
  // the choices as they stand (the game length only while the box holds one that counts).
  const shownRules = rules
    .filter((rule) => rule.kind !== "number" && rule.kind !== "table")
    .map((rule) => offeredRule(rule, size))
    .filter(Boolean);
  const refused = (field, value) => refusal(size, prefs, rules, field, value, lengthProblem ? null : prefs.target);
  /** The first rule whose choice the engine refuses with the others: {rule, why} or null
   * (`why` as `refusal` gives it). */
  const ruleProblem = () => {
    for (const rule of shownRules) {
      const why = refused(rule.field, chosen(rule.field, prefs, size.defaults));
      if (why) return { rule, why };
    }
    return null;
  };
  function drawRules() {
    const focus = focusedControl(ruleList);
    clear(ruleList, shownRules.map((rule) => ruleControl(rule, size.defaults, prefs, refused, () => {
      // The preset whose rules these are, if any ("Standard" once every change is undone).
      const same = presets.find((p) => sameRules(p.rules, prefs.rules));
      prefs.preset = same ? same.name : "custom";
      for (const r of $$("input[name=preset]", root)) r.checked = r.value === prefs.preset;
      change();
      if (rule.field === "kitty") renderSetup(root, args); // the table's words change
      else {
        drawRules();
        invite?.refresh();
        sayTable();
        sayStart();
        sayPreset();
      }
    })));
    refocus(ruleList, focus);
  }
  drawRules();
  /** The line under "House rules": always the rules that will be dealt, and their length. */
  function sayPreset() {
    const hint = presetBox.querySelector("[data-region=preset-help]");
    hint.textContent = presetHelp(presets, prefs, shownRules, lengthProblem);
  }
  sayPreset();

  const speed = h("fieldset", { class: "segmented" },
    h("legend", {}, "Speed of play"),
    Object.entries(SPEEDS).map(([key, value]) => h("label", {},
      h("input", {
        type: "radio", name: "speed", value: key, checked: prefs.speed === key,
        onchange: () => { prefs.speed = key; change(); },
      }), h("span", {}, value.label))));

  const takeBacks = h("div", { class: "rule toggle" },
    h("input", { type: "checkbox", id: "allow-undo", "data-setting": "undo", checked: prefs.undo !== false,
      onchange: (e) => { prefs.undo = e.target.checked; change(); } }),
    h("label", { for: "allow-undo" }, h("strong", {}, "Allow take-backs"),
      h("span", { class: "help" }, "An Undo button takes back your last pass or card. Only against "
        + "computer players; \u201cYour games\u201d marks the games where you used it.")));

  const invite = onInvite ? invitePanel({ options, prefs, players: size.players, seatWord, onInvite,
    onChange: () => { drawSeats(); change(); }, blocked: () => startProblem().alone,
    showBlocked: () => showProblem() }) : null;
  /** The opponents' cards: each with its level to choose, or, with "Invite friends" open,
   * who the invite will really seat where (`invitedCards`). */
  function drawSeats() {
    const invited = Boolean(invite && prefs.friends.open);
    if (invited) {
      // The server says who sits where (asked once for each choice of seats, and asked
      // again as they change); until it has, the cards say what the panel does.
      const seats = ["you", ...prefs.friends.seats];
      const key = seats.join(",");
      const answer = seatings.get(key);
      clear(seatList, invitedCards(options, prefs.friends, seatWord, answer));
      seatList.dataset.seating = answer ? "shown" : "asking";
      seatList.setAttribute("aria-busy", answer ? "false" : "true");
      if (!answer) {
        askSeating(seats, (ok) => {
          // An answer for seats chosen before, or for a screen drawn again since, is kept
          // for later but not shown.
          const now = seatList.isConnected && prefs.friends.open && ["you", ...prefs.friends.seats].join(",") === key;
          if (now && ok) drawSeats();
          else if (now) {
            seatList.dataset.seating = "unknown";
            seatList.setAttribute("aria-busy", "false");
          }
        });
      }
    } else {
      clear(seatList, opponents);
      delete seatList.dataset.seating;
      seatList.removeAttribute("aria-busy");
    }
    allButtons.hidden = invited;
    invitedNote.hidden = !invited;
    // A table of friends never takes a card back: the choice is not theirs to make.
    takeBacks.hidden = invited;
    sayStart();
  }
  // The main button at the foot of the screen does what the cards above it show. With
  // "Invite friends" open they show the invite's table, so it is the panel's own button
  // (a person who had set seats for friends pressed "Deal the cards" and was dealt a game
  // against computer players at levels the screen no longer showed); closed, it deals.
  const startNote = h("p", { class: "hint start-note", id: "start-note", "data-region": "start-note" },
    "To play against computer players only, close \u201cInvite friends\u201d above.");
  // What keeps the game from being dealt, said under the button: the game length, or a
  // house rule the engine refuses with the others.
  const startWhy = h("p", { class: "hint problem start-why", id: "start-why", "data-region": "start-why",
    "aria-live": "polite" });
  const startButton = h("button", {
    class: canContinue ? "wide" : "primary wide", type: "button", "data-action": "new-game",
    onclick: () => {
      const inviting = startButton.dataset.does === "invite";
      if (startButton.getAttribute("aria-disabled") === "true") return inviting ? invite.showProblem() : showProblem();
      return inviting ? onInvite() : onStart();
    },
  });
  /** What keeps the game from being made: {why, alone, control}, `why` said under Deal,
   * `alone` under the invite's own button; both "" when nothing does. */
  function startProblem() {
    if (lengthProblem) {
      return { why: `To deal: ${lower(lengthProblem)}`, alone: lengthProblem, control: targetInput };
    }
    const fault = ruleProblem();
    if (!fault) return { why: "", alone: "" };
    const change = `change \u201c${fault.rule.label}\u201d under \u201cEvery house rule\u201d. ${fault.why.why}`;
    return { why: `To deal, ${change}`, alone: `First ${change}`, control: fault.rule.field };
  }
  /** Deal pressed while held back: the keyboard goes to the choice that holds it back. */
  function showProblem() {
    const { control } = startProblem();
    if (control === targetInput) return targetInput.focus();
    const details = root.querySelector("details.all-rules");
    if (details) details.open = true;
    return root.querySelector(`#rule-${control}`)?.focus();
  }
  function sayStart() {
    const inviting = Boolean(invite && prefs.friends.open);
    const problem = startProblem().why;
    const { label, disabled, why } = inviting ? invite.action()
      : { label: canContinue ? "Start a new game" : "Deal the cards", disabled: Boolean(problem), why: problem };
    startButton.dataset.does = inviting ? "invite" : "deal";
    startButton.textContent = label;
    // aria-disabled, not disabled: held back, Deal (or Invite) stays in the Tab order and says
    // why, as the game's dimmed Pass does (disabled, it dropped out and the keyboard lost it).
    const held = disabled;
    startButton.setAttribute("aria-disabled", held ? "true" : "false");
    startWhy.textContent = held ? why : "";
    startWhy.hidden = !held;
    startNote.hidden = !inviting;
    // Said with the button to a screen reader only while there is a note to say.
    const notes = [inviting ? "start-note" : null, held ? "start-why" : null].filter(Boolean);
    if (notes.length) startButton.setAttribute("aria-describedby", notes.join(" "));
    else startButton.removeAttribute("aria-describedby");
  }
  drawSeats();
  clear(root,
    h("header", { class: "hero" },
      h("h1", { tabindex: "-1" }, "Hearts"),
      h("p", { class: "tagline" }, "Keep clear of hearts and the queen of spades. Lowest score wins.")),
    unfinished.length ? unfinishedList(unfinished, onContinue) : null,
    listError ? h("section", { class: "panel unfinished", "data-region": "list-error" },
      h("p", { class: "error", role: "alert" },
        listComing
          ? "Your unfinished games could not be listed: the server is not answering just now. "
            + "They are still saved, and the list will appear here as soon as it answers."
          : `Your unfinished games could not be listed. ${listError} They are still saved.`),
      h("button", { type: "button", "data-action": "list-again", onclick: () => onRetry() }, "Try again"))
      : null,
    h("section", { class: "panel", "aria-labelledby": "meet" },
      h("h2", { id: "meet" }, "Your table"),
      sizes,
      seatList,
      allButtons,
      invitedNote),
    invite?.panel,
    h("section", { class: "panel" }, length, speed, takeBacks),
    h("section", { class: "panel" },
      presetBox,
      h("details", { class: "all-rules", open: rulesOpen },
        h("summary", {}, h("span", { class: "disclosure", "aria-hidden": "true" }), "Every house rule",
          h("span", { class: "summary-note" }, ` · ${ruleList.children.length} options`)),
        ruleList)),
    startButton,
    startWhy,
    startNote,
    h("section", { class: "panel look" }, themeControl()),
    h("nav", { class: "links", "aria-label": "More" },
      // The games this browser finished, their figures and replays: linked before only from
      // a game's last panel, so a player who dealt again had no way back to them.
      h("a", { href: "/stats", "data-link": "your-games" }, "Your games"),
      h("a", { href: "/rules" }, "How to play"),
      h("a", { href: "/scorekeeper" }, "Scorekeeper for real cards"),
      // For the table chosen above: its cards each, cards left out and lead.
      h("a", { href: `/sheets/rules.pdf?players=${size.players}`, "data-link": "rules-pdf" }, "Rule sheet (PDF)"),
      h("a", { href: `/sheets/score.pdf?players=${size.players}`, "data-link": "score-pdf" }, "Score sheet (PDF)")));
  refocus(root, focused);
}

// The server's answers to "who would these seats seat where?" (`GET /api/seating`), by the
// seats asked about: the same for everyone until the server is updated, so asked once.
const seatings = new Map();
const SEATINGS_KEPT = 64;
let asked = null; // the latest seats to ask about while a request is out: {seats, done}
let asking = false;

/** Ask the server who `seats` seat where, then call done(ok). One request at a time: seats
 * chosen while one is out wait for it, and only the latest of them is asked about (a person
 * clicking through a row's levels sends two requests, not one a click). */
async function askSeating(seats, done) {
  asked = { seats, done };
  if (asking) return;
  asking = true;
  try {
    while (asked) {
      const { seats: now, done: then } = asked;
      asked = null;
      const key = now.join(",");
      let ok = seatings.has(key);
      if (!ok) {
        try {
          const answer = await api.seating(now);
          if (seatings.size >= SEATINGS_KEPT) seatings.delete(seatings.keys().next().value);
          seatings.set(key, answer);
          ok = true;
        } catch {
          // Said by no error box: the cards go on showing what the panel does, without names.
        }
      }
      then(ok);
    }
  } finally {
    asking = false;
  }
}

/** The cards of the other seats as the invite's table will have them, in the lobby's words:
 * each computer seat with the character and level the server's answer (`answer`, the lobby
 * of these seats) gives it, each friend's seat open, with the character that plays it if
 * nobody comes when the server knows it already. Without an answer yet (or none coming)
 * each card says what the panel does: a computer player at its level, or an open seat. */
function invitedCards(options, friends, seatWord, answer) {
  const character = (id) => options.opponents.find((o) => o.id === id);
  return friends.seats.map((choice, i) => {
    const where = h("span", { class: "seat-word" }, ` · ${seatWord(i)}`);
    const shown = answer?.find((s) => s.seat === i + 1); // the person sits first
    if (choice === "friend") {
      return h("li", { class: "opponent open" },
        h("span", { class: "initial empty", "aria-hidden": "true" }, "?"),
        h("div", {},
          h("h3", {}, h("span", { class: "name" }, "Open seat"), where),
          h("p", { class: "level" }, waitingWords(friends.fill, character(shown?.stand_in)?.name))));
    }
    const o = character(shown?.character);
    if (!o) {
      return h("li", { class: "opponent" },
        h("span", { class: "initial", "aria-hidden": "true" }, "?"),
        h("div", {},
          h("h3", {}, h("span", { class: "name" }, "Computer player"), where),
          h("p", { class: "level" }, dotted(`Computer · ${choice}`))));
    }
    return h("li", { class: "opponent" },
      face(o.face, "pleased"),
      h("div", {},
        h("h3", {}, h("span", { class: "name" }, o.name), where),
        h("p", { class: "level" }, dotted(`Computer · ${shown.level}`)),
        h("p", { class: "blurb" }, o.blurb)));
  });
}

/** A selector for the focused control inside `root` that finds its counterpart once the
 * screen is drawn again: by id, else by name (and value, for a radio or a checkbox), else by
 * its data-action. Null when the focus is elsewhere. */
function focusedControl(root) {
  const el = document.activeElement;
  if (!el || el === root || !root.contains(el)) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  if (el.name) {
    const value = el.type === "radio" || el.type === "checkbox" ? `[value="${CSS.escape(el.value)}"]` : "";
    return `${el.tagName.toLowerCase()}[name="${CSS.escape(el.name)}"]${value}`;
  }
  if (el.dataset.action) return `[data-action="${CSS.escape(el.dataset.action)}"]`;
  return null;
}

function refocus(root, selector) {
  const again = selector && root.querySelector(selector);
  if (again && again !== document.activeElement) again.focus();
}

function levelHelp(options, prefs) {
  const levels = new Set(prefs.levels);
  if (levels.size > 1) return "A mixed table: each player as chosen above.";
  const level = options.levels.find((l) => l.name === prefs.levels[0]);
  return level ? `${capital(level.name)}: ${level.help} Or choose for each player above.` : "";
}

/** This browser's unfinished games, newest first, each with a button to take it up again. */
function unfinishedList(games, onContinue) {
  // A score stays by its name (at five players "Oskar" ended a line, his 0 the next).
  const line = (game) => game.names.map((name, seat) => `${named(name)}\u00a0${score(game.scores[seat])}`).join(" · ");
  // A table of friends not started yet: who sits there so far (no scores yet), and no
  // open seat named as if it were a player.
  const waiting = (game) => {
    const open = game.open_seats || [];
    const seated = game.names.filter((_, seat) => !open.includes(seat)).map(named);
    const seats = open.length === 1 ? "one open seat" : open.length ? `${open.length} open seats` : "";
    return [...seated, seats].filter(Boolean).join(" · ");
  };
  const first = games.find((game) => !game.damaged); // its button is the main one
  return h("section", { class: "panel unfinished", "aria-labelledby": "unfinished-title" },
    h("h2", { id: "unfinished-title" }, games.length > 1 ? "Your unfinished games" : "Your unfinished game"),
    h("ul", {}, games.map((game) => game.damaged
      ? h("li", { "data-damaged": "true" }, h("span", { class: "game-line" },
        `${game.played ? `A game last played ${playedWhen(game.played)}` : "A saved game"} could not be read: its record is damaged, so it cannot be continued.${game.closes ? " A new game against the computer removes it." : ""}`))
      : h("li", {},
      h("button", { class: game === first ? "primary" : "", type: "button", "data-action": "continue",
        "data-game": game.id, onclick: () => onContinue(game.id) },
      game === first ? "Continue game" : "Continue"),
      h("span", { class: "game-line" },
        h("strong", {}, `${game.started === false ? "Waiting for friends" : `Round ${game.round}`} · ${game.names.length} players to ${game.target}`),
        game.friends ? [" ", h("span", { class: "badge friends", "data-friends": "true" }, "with friends")] : null,
        h("span", { class: "table-words", "data-region": "table-words" }, tableWords(game)),
        h("span", { class: "scores" }, game.started === false ? waiting(game) : line(game)),
        h("span", { class: "played", "data-played": game.played }, `Last played ${playedWhen(game.played)}`),
        game.closes ? h("span", { class: "played", "data-closes": "true" }, "A new game against the computer closes this one.") : null)))));
}

/** What sets a saved game's table apart, in short words: its computer players' level and its
 * house rules ("Expert players · Partners, Bonus card", "2 easy, 1 hard · Standard rules"). */
function tableWords(game) {
  const levels = (game.levels || []).filter(Boolean);
  const counts = new Map();
  for (const level of levels) counts.set(level, (counts.get(level) || 0) + 1);
  const level = counts.size === 1 ? `${capital(levels[0])} players`
    : [...counts].map(([name, n]) => `${n} ${name}`).join(", ");
  const rules = houseRulesShort(game.house_rules) || "Standard rules";
  return [level, rules].filter(Boolean).join(" · ");
}

function capital(word) {
  return word[0].toUpperCase() + word.slice(1);
}
