// Playing with friends: the start screen's "Invite friends" panel (who sits where), and what
// a table with people shows at each seat: person or computer, away, connected, the turn
// timer, reactions. Names people chose are text: every one goes in through textContent
// (h() makes text nodes), never as markup.

import { h, $$ } from "./dom.js";
import { isMe, listed, named, plural } from "./words.js";

export const TURN_TIMES = [null, 15, 30, 60, 120];
const NAME_MAX = 24;
// The code points a name may hold at most, as the server allows (a family emoji is seven).
const NAME_CODE_POINTS = NAME_MAX * 4;
const ZWJ = "\u200d";

/** How many characters a name shows, roughly as a person counts them, as the server's
 * `name_length` counts: an accent or a skin tone belongs to the character before it, a
 * character after a zero width joiner to the emoji it joins, two regional indicators are one
 * flag, a joiner is nothing. "Ana 👩‍💻" is 5, "👨‍👩‍👧‍👦" 1. */
export function nameLength(name) {
  let count = 0;
  let joined = false; // the character after a ZWJ joins the one before it
  let flag = false; // a regional indicator waiting for its pair
  for (const ch of name) {
    if (ch === ZWJ || ch === "\u200c") {
      joined = ch === ZWJ;
      continue;
    }
    const indicator = ch >= "\u{1f1e6}" && ch <= "\u{1f1ff}";
    const tone = ch >= "\u{1f3fb}" && ch <= "\u{1f3ff}";
    if (joined || ((/\p{M}/u.test(ch) || tone) && count)) {
      joined = false;
    } else if (indicator && flag) {
      flag = false;
    } else {
      count += 1;
      flag = indicator;
      continue;
    }
    flag = false;
  }
  return count;
}

/** Whether a state is a table with more than one person (live: a stream, a lobby). */
export function isFriends(state) {
  return Boolean(state?.table?.friends);
}

/** The problem with a name a person typed, or "" (1 to 24 printable characters, and none
 * of `taken`, the names at the table already, whatever their case). */
export function nameProblem(text, taken = []) {
  const name = text.trim();
  if (!name || /^[\u200c\u200d]+$/u.test(name)) return "Type a name for the others to see.";
  if (nameLength(name) > NAME_MAX || [...name].length > NAME_CODE_POINTS) return `A name has at most ${NAME_MAX} characters.`;
  // As the server: control characters, line or paragraph separators and invisible format
  // characters are refused (bidi controls typed in a name could reorder the page's words),
  // all but the joiners that make emoji ("👩‍💻") and keep Persian or Indic letters apart.
  if (/[\p{Cc}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?![\u200c\u200d])\p{Cf}/u.test(name)) return "A name cannot hold invisible characters (pasted text can bring them): type it again.";
  const key = name.toLocaleLowerCase();
  const same = taken.find((t) => t.trim().toLocaleLowerCase() === key);
  if (same !== undefined) {
    // As they are called ("Ann"), not as typed ("ann").
    return `Someone at this table is called ${named(same.trim())} already: add an initial, or choose another name.`;
  }
  return "";
}

/** An example name for a name box, none of `taken` (the names at the table already). */
export function exampleName(taken = []) {
  const names = ["Ann", "Bea", "Cal", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit"];
  return names.find((n) => !taken.includes(n)) || "Sam";
}

/** Say `problem` in `note`, under the name box `input`, and mark the box wrong ("" clears
 * both). The box names the note as its description (aria-describedby). */
export function sayNameProblem(input, note, problem) {
  input.setAttribute("aria-invalid", problem ? "true" : "false");
  note.textContent = problem;
  note.classList.toggle("problem", Boolean(problem));
}

/** A name's box and the note under it. `taken`: the names of the people seated already,
 * which the box refuses; `field.taken(names)` gives newer ones (a friend who has come). */
export function nameField({ id, value, onInput, label = "Your name", taken = [] }) {
  let seated = taken;
  const note = h("p", { class: "hint name-note", id: `${id}-note`, "aria-live": "polite" });
  const input = h("input", {
    type: "text", id, value: value || "", maxlength: NAME_CODE_POINTS * 2, autocomplete: "nickname",
    placeholder: `e.g. ${exampleName(taken)}`, "aria-describedby": `${id}-note`, spellcheck: "false",
    oninput: () => {
      show(input.value.trim() ? nameProblem(input.value, seated) : "");
      onInput(input.value);
    },
  });
  /** Say `problem` under the box ("" clears it). */
  const show = (problem) => sayNameProblem(input, note, problem);
  const field = h("div", { class: "name-field" }, h("label", { for: id }, label), input, note);
  return { input, note, show, field, taken: (names) => { seated = names; } };
}

/**
 * The "Invite friends" panel of the start screen. prefs.friends keeps {open, seats (one
 * choice per other seat: "friend" or a level), fill, turnTime, hints, name}. onInvite() starts it.
 * `seatWord(i)` says where the i-th other seat sits ("On your left"); `blocked()` says why
 * the table cannot be made from the rest of the screen ("" when it can: a game length out of
 * range), and `showBlocked()` takes the keyboard to the choice at fault. Returns {panel,
 * refresh, action, showProblem}: refresh() after what `blocked` reads has changed; action() is
 * what the invite button says ({label, disabled, why}: `why` the reason it is held back, or
 * ""); showProblem() takes the keyboard to what holds it back.
 */
export function invitePanel({ options, prefs, players, seatWord, onInvite, onChange, blocked = () => "",
  showBlocked = () => {} }) {
  const defaults = options.table_defaults || { turn_time: 30, hold_time: 120, fill: "medium" };
  const levelNames = options.levels.map((l) => l.name);
  const f = prefs.friends = { open: false, seats: [], fill: defaults.fill, turnTime: defaults.turn_time,
    hints: true, name: "", ...(prefs.friends || {}) };
  if (typeof f.hints !== "boolean") f.hints = true;
  if (!levelNames.includes(f.fill)) f.fill = defaults.fill;
  const others = players - 1;
  f.seats = Array.from({ length: others }, (_, i) => {
    const chosen = f.seats[i];
    if (chosen === "friend" || levelNames.includes(chosen)) return chosen;
    return i === 0 ? "friend" : prefs.levels[i] || levelNames[0];
  });
  if (!f.seats.includes("friend")) f.seats[0] = "friend";

  // Why the button is held back, said under it: no friend's seat, the name, or a reason that
  // lies elsewhere on the screen (the game length's note is screens above it).
  const why = h("p", { class: "hint invite-note", id: "invite-note", "data-region": "invite-note" });
  const button = h("button", { type: "button", class: "primary wide", "data-action": "invite",
    "aria-describedby": "invite-note",
    onclick: () => (button.getAttribute("aria-disabled") === "true" ? showProblem() : onInvite()) });
  /** What holds the invite back: {why, show}, `why` "" when nothing does; show() takes the
   * keyboard to it. */
  const problem = () => {
    if (!f.seats.includes("friend")) {
      return { why: "Choose “Friend” for a seat above.",
        show: () => details.querySelector("input[value=friend]")?.focus() };
    }
    const nameWhy = nameProblemIfAny(f.name);
    if (nameWhy) return { why: `Change your name above. ${nameWhy}`, show: () => name.input.focus() };
    return { why: blocked(), show: showBlocked };
  };
  const showProblem = () => problem().show();
  /** What the invite button says and whether it can be pressed (and if not, why): the start
   * screen's main button says and does the same while the panel is open. */
  const action = () => {
    const friends = f.seats.filter((s) => s === "friend").length;
    const held = problem().why;
    return {
      label: friends ? `Invite ${friends === 1 ? "a friend" : `${friends} friends`}` : "Choose a seat for a friend",
      disabled: Boolean(held),
      why: held,
    };
  };
  // aria-disabled, not disabled: held back, it stays in the Tab order, says why under it and,
  // pressed, takes the keyboard to what holds it back, as "Deal the cards" does (disabled,
  // the keyboard passed it by and nothing said why).
  const sayButton = () => {
    const { label, disabled, why: held } = action();
    button.textContent = label;
    button.setAttribute("aria-disabled", disabled ? "true" : "false");
    why.textContent = held;
    why.hidden = !held;
  };

  const rows = f.seats.map((choice, i) => h("li", { class: "invite-seat", "data-seat-row": i + 1 },
    h("span", { class: "seat-word" }, seatWord(i)),
    h("fieldset", { class: "segmented small", "aria-label": `Who sits ${seatWord(i).toLowerCase()}?` },
      ["friend", ...levelNames].map((value) => h("label", {},
        h("input", {
          type: "radio", name: `invite-seat-${i + 1}`, value, checked: choice === value,
          onchange: () => { f.seats[i] = value; sayButton(); onChange(); },
        }), h("span", {}, value === "friend" ? "Friend" : capital(value)))))));

  const fill = h("fieldset", { class: "segmented small" },
    h("legend", {}, "Computer players for seats nobody takes"),
    levelNames.map((level) => h("label", {},
      h("input", { type: "radio", name: "invite-fill", value: level, checked: f.fill === level,
        onchange: () => { f.fill = level; onChange(); } }),
      h("span", {}, capital(level)))),
    h("p", { class: "hint" }, "They also play for anyone who runs out of time, until that person is back."));

  const time = h("fieldset", { class: "segmented small" },
    h("legend", {}, "Time for a move"),
    TURN_TIMES.map((seconds) => h("label", {},
      h("input", { type: "radio", name: "invite-time", value: seconds ?? "off",
        checked: (f.turnTime || null) === seconds,
        onchange: () => { f.turnTime = seconds; onChange(); } }),
      h("span", {}, seconds ? `${seconds} s` : "Off"))));

  // The coach's hints: allowed (the others are told of each) or off for everyone.
  const hintsNote = h("p", { class: "hint", "data-region": "hints-note" });
  const sayHints = () => { hintsNote.textContent = hintsWords(f.hints); };
  const hints = h("fieldset", { class: "segmented small", "data-setting": "hints" },
    h("legend", {}, "The coach's hints"),
    [[true, "Allowed"], [false, "Off"]].map(([value, label]) => h("label", {},
      h("input", { type: "radio", name: "invite-hints", value: value ? "on" : "off", checked: f.hints === value,
        onchange: () => { f.hints = value; sayHints(); onChange(); } }),
      h("span", {}, label))),
    hintsNote);
  sayHints();

  const name = nameField({ id: "host-name", value: f.name,
    onInput: (text) => { f.name = text; sayButton(); onChange(); } });
  sayButton();

  const details = h("details", { class: "panel friends-panel", "data-region": "invite", open: f.open,
    ontoggle: () => { f.open = details.open; onChange(); } },
  h("summary", { class: "friends-summary" }, h("span", { class: "disclosure", "aria-hidden": "true" }),
    "Invite friends", h("span", { class: "summary-note" },
      h("span", { class: "note-sep" }, " · "), "play with people by a link")),
  h("p", { class: "hint" }, "Choose who sits where. Friends join with a link you send them; "
    + "computer players take the seats you give them."),
  h("div", { class: "invite-me" }, h("span", { class: "seat-word" }, "You, named"), name.field),
  h("ul", { class: "invite-seats" }, rows),
  fill, time, hints, button, why);
  return { panel: details, refresh: sayButton, action, showProblem };
}

function nameProblemIfAny(text) {
  return text && text.trim() ? nameProblem(text) : "";
}

/** The POST /api/games body for the panel's choices (the person sits first). */
export function tableBody(prefs, rules) {
  const f = prefs.friends;
  const body = { rules, seats: ["you", ...f.seats], fill: f.fill, turn_time: f.turnTime || null,
    hints: f.hints !== false };
  if (f.name && f.name.trim()) body.name = f.name.trim();
  return body;
}

/** What a friend's seat says until someone takes it: who plays there if nobody comes, at
 * the table's `fill` level ("else an easy computer player"), by name when it is known
 * ("else Bertie, an easy computer player"). */
export function waitingWords(fill, name = "") {
  return `Waiting for a friend; else ${name ? `${name}, ` : ""}${/^[aeiou]/.test(fill) ? "an" : "a"} ${fill} computer player`;
}

/** A table's hints setting in words, for whoever makes, joins or sits at it. */
export function hintsWords(allowed) {
  return allowed
    ? "Anyone may ask the coach for a hint; the others are told each time."
    : "No hints: nobody at this table can ask the coach.";
}

/** A table's time for a move in words (`seconds`, or none), beside its hints setting: short,
 * for the lobby's first screen (who runs out of time is played for, as the invite says). */
export function turnTimeWords(seconds) {
  return seconds
    ? `${seconds} seconds for each move.`
    : "No time limit for a move.";
}

// --- at the table ----------------------------------------------------------------------

/** "Ann took 3 hints from the coach, you took 1 and Bea none." at a table of friends with
 * hints allowed, the setting's words at one without (null at any other table): for the
 * scores and the game's end. */
export function hintsTaken(state) {
  if (!isFriends(state)) return null;
  if (state.table.hints === false) {
    return h("p", { class: "hint hints-taken", "data-region": "hints-taken" }, hintsWords(false));
  }
  const people = state.players.filter((p) => p.person && !p.open && Number.isInteger(p.hints));
  if (!people.length) return null;
  let words = "Nobody asked the coach for a hint.";
  if (people.some((p) => p.hints > 0)) {
    // The most first; "you" for the person reading.
    const sorted = [...people].sort((a, b) => b.hints - a.hints);
    const parts = sorted.map((p, i) => {
      const count = p.hints === 0 ? "none" : i === 0 ? `${plural(p.hints, "hint")} from the coach` : p.hints;
      return `${p.you ? "you" : named(p.name)} took ${count}`;
    });
    words = listed(parts);
    words = `${words[0].toUpperCase()}${words.slice(1)}.`;
  }
  return h("p", { class: "hint hints-taken", "data-region": "hints-taken" }, words);
}

/** "Ann asked the coach for a hint." said for a moment on the table, and kept in the log. */
export function hintNews(state, seat) {
  return `${state.players[seat] ? named(state.players[seat].name) : "Someone"} asked the coach for a hint.`;
}

/** Whether a person's seat shows them connected. Away is gone (a request would have taken
 * the seat back): never a green dot beside it. Nor beside the person's own seat while this
 * page knows it cannot reach the table (the device offline, the stream reconnecting). */
export function seatConnected(state, seat) {
  const player = state.players[seat];
  const cut = Boolean(state.view) && isMe(state, seat) && (navigator.onLine === false || reconnecting());
  return player.connected !== false && !player.away && !cut;
}

/** Whether this page has lost its live line to the server ("Reconnecting…"): nobody's
 * connection is known then, nor the turn clock (a server back from an outage gives the
 * turn waiting on it a grace: `RETURN_GRACE` in service.py). */
export function reconnecting() {
  return document.body.dataset.live === "reconnecting";
}

const UNKNOWN = "Not known while this page reconnects";
const RECONNECTING_TITLE = "Their connection dropped: their seat is kept while they reconnect";

/** Whether someone else's page has gone quiet without closing (a phone gone offline): the
 * server marks them reconnecting until they are heard from again or the hold time ends.
 * Not said while this page is itself reconnecting: then nobody's connection is known. */
export function seatReconnecting(state, seat) {
  const player = state.players[seat];
  return Boolean(player.reconnecting) && !player.away && !isMe(state, seat) && !reconnecting();
}

const GONE_TITLE = "Their page has closed: their seat is kept for them until they come back or the hold time ends";

/** How long a page has been closed before the others are told: a friend who reloads, or
 * whose stream drops a moment, is back well within it (each reload flashed "Not here"). */
export const GONE_AFTER_MS = 6000;

/** When this page first saw each seat's page closed, by game and seat. */
const closedSince = new Map();

function pageClosed(state, seat) {
  const player = state.players[seat];
  return Boolean(player.person) && player.connected === false && !player.reconnecting && !player.away
    && !isMe(state, seat);
}

/** Note which seats' pages are closed in `state`, as each one arrives; the milliseconds
 * until the first of them has been closed `GONE_AFTER_MS` and is said, or null if none is
 * waiting to be. */
export function noteClosed(state, now = Date.now()) {
  for (const key of closedSince.keys()) {
    if (!key.startsWith(`${state.id}/`)) closedSince.delete(key); // another game's, left behind
  }
  let due = null;
  state.players.forEach((_, seat) => {
    const key = `${state.id}/${seat}`;
    if (!pageClosed(state, seat)) {
      closedSince.delete(key);
      return;
    }
    if (!closedSince.has(key)) closedSince.set(key, now);
    const left = closedSince.get(key) + GONE_AFTER_MS - now;
    if (left > 0 && (due === null || left < due)) due = left;
  });
  return due;
}

/** Whether someone else's page has been closed (its stream ended) for `GONE_AFTER_MS` and
 * they are not away yet: their seat waits for them, and the others are told so in words,
 * not by a grey dot alone (a host once waited two minutes on a friend's turn, taking the
 * table for stuck). Not said while this page is itself reconnecting: then nobody's
 * connection is known. */
export function seatGone(state, seat, now = Date.now()) {
  const since = closedSince.get(`${state.id}/${seat}`);
  return pageClosed(state, seat) && since !== undefined && now - since >= GONE_AFTER_MS
    && !reconnecting();
}

/** The status line on the turn of someone not here: what the table waits for, and what
 * happens if they do not come back (with a turn timer, its countdown says when). */
export function goneTurnLine(state, seat) {
  const table = state.table || {};
  const start = `${named(state.players[seat].name)} is not here`;
  if (table.turn_time) return `${start}: when time is up, a computer player plays for them.`;
  const hold = table.hold_time;
  if (!hold) return `${start}.`;
  const within = hold % 60 === 0 ? plural(hold / 60, "minute") : plural(Math.round(hold), "second");
  return `${start}: a computer player plays for them within ${within} unless they come back.`;
}

/** A seat's connection dot: on (green), off, or not known while the page reconnects (each
 * seat still showed a green "connected" dot beside "Reconnecting…"). */
function connection(on) {
  if (reconnecting()) {
    return { class: "live-dot", "data-connected": "unknown", role: "img", "aria-label": UNKNOWN.toLowerCase(), title: UNKNOWN };
  }
  return { class: `live-dot${on ? " on" : ""}`, "data-connected": on ? "true" : "false",
    role: "img", "aria-label": on ? "connected" : "not connected", title: on ? "Connected" : "Not connected" };
}

/** The small signs beside a seat's name at a table with people. */
export function seatSigns(state, seat) {
  const player = state.players[seat];
  if (!isFriends(state)) return null;
  const signs = [];
  if (player.person) {
    // Away is gone (a request would have taken the seat back): never a green dot beside it.
    signs.push(h("span", connection(seatConnected(state, seat))));
  }
  if (player.away) {
    signs.push(h("span", { class: "badge away", "data-away": "true",
      title: "Away: a computer player plays for them until they are back" }, "Away"));
  } else if (seatReconnecting(state, seat)) {
    signs.push(h("span", { class: "badge reconnecting", "data-reconnecting": "true",
      title: RECONNECTING_TITLE }, "Reconnecting…"));
  } else if (seatGone(state, seat)) {
    signs.push(h("span", { class: "badge gone", "data-gone": "true", title: GONE_TITLE }, "Not here"));
  }
  signs.push(h("span", { class: "timer", "data-timer": seat, hidden: true }));
  return h("span", { class: "signs-line" }, signs);
}

/** Words such as "Computer · medium" on a line that may wrap, the dot kept with the word after
 * it: where they wrap, "Computer" over "· medium", never a line ending with the dot ("Computer ·"
 * over "medium" in the lobby on a 320 px phone). The words themselves are unchanged. */
export function dotted(words) {
  const [first, ...rest] = String(words).split(" · ");
  if (!rest.length) return first;
  const [word, ...more] = rest.join(" · ").split(" ");
  return [first, " ", h("span", { class: "keep-together" }, `· ${word}`), more.length ? ` ${more.join(" ")}` : ""];
}

/** What a person at a table with friends is called under their name, by everyone else (in
 * the lobby "Friend · not connected" and so on): "Person" read cold, as if from a form. */
export const FRIEND = "Friend";

/** "Friend", "You" or "Computer · medium" for the line under a name. */
export function kindLine(state, seat) {
  const player = state.players[seat];
  if (player.open) return "Open seat";
  if (player.person) return isMe(state, seat) ? "You" : FRIEND;
  return `Computer · ${player.level}`;
}

/** The turn timer: counts down to `table.deadline` on every awaited seat, corrected for the
 * difference between the server's clock and this one (`table.now`). */
/** Seconds left on the person's own turn when they are told so. */
const WARN_AT = 10;

export class TurnClock {
  /** `onShort(seconds)` is called once a turn when the person's own time falls to
   * `WARN_AT` seconds: the countdown itself is not read out. */
  constructor(root, onShort = () => {}) {
    this.root = root;
    this.onShort = onShort;
    this.warned = null; // the deadline already warned of
    this.deadline = null;
    this.waiting = [];
    this.skew = 0;
    this.interval = null;
  }

  set(state) {
    const table = state?.table;
    // A turn timer only at a table with a turn time (the hold time of a person who has gone
    // is the server's business, not a countdown for everyone), and only on people's seats:
    // a computer player moves at once.
    const timed = table && table.started && table.turn_time && table.deadline;
    this.deadline = timed ? table.deadline : null;
    this.waiting = (table?.waiting_on || []).filter((seat) => {
      const player = state.players[seat];
      return player && player.person && !player.away;
    });
    this.me = state?.view?.seat;
    if (table?.now) this.skew = table.now - (table.received ?? Date.now() / 1000);
    if (this.deadline && !this.interval) this.interval = setInterval(() => this.tick(), 250);
    if (!this.deadline && this.interval) {
      clearInterval(this.interval);
      this.interval = null;
    }
    this.tick();
  }

  /** Seconds left for the awaited seats, or null without a turn time. */
  left() {
    if (!this.deadline) return null;
    return Math.max(0, Math.ceil(this.deadline - (Date.now() / 1000 + this.skew)));
  }

  tick() {
    // While the page reconnects the server's clock is not known (a server back from an
    // outage gives the turn a grace): no seat counts down meanwhile, and nobody is warned.
    const left = reconnecting() ? null : this.left();
    if (left !== null && left <= WARN_AT && left > 0 && this.waiting.includes(this.me)
      && this.warned !== this.deadline) {
      this.warned = this.deadline;
      this.onShort(left);
    }
    for (const el of $$("[data-timer]", this.root)) {
      if (el.dataset.timer === "deal") {
        // A finished round at a table with a turn time: the server deals on by itself
        // then, or sooner once everyone here is ready.
        el.hidden = left === null;
        el.textContent = el.hidden ? "" : `The next round is dealt in ${left} s, or as soon as everyone is ready.`;
        continue;
      }
      const seat = Number(el.dataset.timer);
      const on = left !== null && this.waiting.includes(seat);
      el.hidden = !on;
      if (!on) continue;
      // A seat's clock reads "12 s"; a line in a panel (the moon's choice) says it in
      // words, its `data-timer-line` holding "{s}" where the seconds go.
      const line = el.dataset.timerLine;
      el.textContent = line ? line.replace("{s}", String(left)) : `${left} s`;
      el.classList.toggle("short", left <= 5);
      if (!line) el.setAttribute("aria-label", `${plural(left, "second")} left`);
    }
  }
}

/** The reactions: a "React" button opening a short menu, one item per reaction the server
 * offers (its emoji and its words). onReact(key) sends one. */
export function reactionBar(reactions, onReact) {
  const menu = h("div", { class: "reaction-menu", role: "menu", "aria-label": "Reactions", hidden: true });
  const toggle = h("button", {
    type: "button", class: "quiet", "data-action": "react", "aria-haspopup": "menu", "aria-expanded": "false",
    onclick: () => show(menu.hidden),
    // A menu button's arrows open its menu at the first item or the last.
    onkeydown: (e) => {
      if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
      e.preventDefault();
      show(true, e.key === "ArrowUp" ? -1 : 0);
    },
  }, "React");
  // A tap anywhere else closes the menu.
  const outside = (e) => {
    if (!menu.contains(e.target) && e.target !== toggle) show(false);
  };
  const items = () => [...menu.querySelectorAll("[role=menuitem]")];
  // The menu is one tab stop, its item with the focus; the arrows move among the items.
  function focusItem(index) {
    const all = items();
    if (!all.length) return;
    const at = (index + all.length) % all.length;
    all.forEach((item, i) => { item.tabIndex = i === at ? 0 : -1; });
    all[at].focus();
  }
  function show(open, at = 0) {
    menu.hidden = !open;
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      focusItem(at);
      document.addEventListener("pointerdown", outside);
    } else {
      document.removeEventListener("pointerdown", outside);
    }
  }
  for (const r of reactions || []) {
    menu.append(h("button", {
      type: "button", role: "menuitem", class: "reaction", "data-reaction": r.key, tabindex: "-1",
      onclick: () => { show(false); onReact(r.key); toggle.focus(); },
    }, h("span", { class: "emoji", "aria-hidden": "true" }, r.emoji), r.label));
  }
  menu.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { show(false); toggle.focus(); return; }
    const at = items().indexOf(document.activeElement);
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: -1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    focusItem(to);
  });
  return h("div", { class: "reactions", "data-region": "reactions" }, toggle, menu);
}

/** Whether this system draws colour emoji; without them (a bare server's browser) the
 * reactions show their words alone instead of empty boxes. */
export function emojiShown() {
  try {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 24;
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    if (!ctx) return true;
    ctx.textBaseline = "top";
    ctx.font = "20px sans-serif";
    ctx.fillStyle = "#000";
    ctx.fillText("\u{1F44D}", 0, 0);
    const data = ctx.getImageData(0, 0, 24, 24).data;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] && (data[i] !== data[i + 1] || data[i + 1] !== data[i + 2])) return true;
    }
    return false;
  } catch {
    return true;
  }
}

/** What a reaction looks like at the seat: the emoji, with its words for a screen reader. */
export function reactionText(reactions, key) {
  const r = (reactions || []).find((x) => x.key === key);
  if (!r) return key;
  return document.body.dataset.emoji === "none" ? r.label : `${r.emoji} ${r.label}`;
}

/** A button to a rematch: "Rematch" to ask for one, "Join the rematch" once somebody has. */
export function rematchButton(state, onRematch) {
  const offered = Boolean(state.table?.rematch);
  return h("button", { type: "button", class: "primary", "data-action": offered ? "join-rematch" : "rematch",
    onclick: onRematch }, offered ? "Join the rematch" : "Rematch");
}

function capital(word) {
  return word[0].toUpperCase() + word.slice(1);
}
