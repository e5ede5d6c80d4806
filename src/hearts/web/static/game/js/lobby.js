// Before a table with friends starts: the lobby (who sits where, the invite link with Copy and
// Share, Start for the host) and the page a friend's link opens (a name, then Join).
// People's names are text, never markup: h() puts them in as text nodes.

import { h, clear } from "./dom.js";
import { face } from "./faces.js";
import { dotted, FRIEND, hintsWords, nameField, nameProblem, turnTimeWords, waitingWords } from "./friends.js";
import { initial, isMe, listed, named, plural, sideWord, where } from "./words.js";

/** The lobby for `state` (table.started false). actions: {start(), copied(text)}. A
 * rematch's lobby waits for the last game's people to come to it; any of them may start it.
 * `news`: who last came or went ("Zoë left the table."), or "". */
export function renderLobby(root, state, options, actions, news = "") {
  const table = state.table;
  const open = table.open_seats.length;
  const fill = table.fill;
  const invite = table.invite ? new URL(table.invite, location.origin).href : null;
  const rematch = Boolean(table.rematch_of);
  const away = state.players.filter((p) => p.person && p.away).map((p) => named(p.name));
  const heading = rematch ? "The rematch" : table.host ? "Your table" : "You are at the table";
  let line = open
    ? `Waiting for ${open === 1 ? "one more friend" : `${open} more friends`}.`
    : "Every seat is taken.";
  if (away.length) line = `Waiting for ${listed(away)} to come from the last game.`;
  let hint = open
    ? `Start now and computer players (${fill}) fill the empty seats; or wait for your friends.`
    : "Everyone is here.";
  if (away.length) {
    hint = `Start now and a computer player plays for ${listed(away)} until they come; or wait: `
      + "the rematch starts by itself once everyone is here.";
  }
  // Drawn again at every piece of news (a friend comes, a seat's stand-in changes): whatever
  // had the keyboard's focus keeps it, and "Copied." stays said, as if nothing had moved.
  const focused = root.contains(document.activeElement) ? partOf(document.activeElement) : null;
  // Both for this table only: another table's lobby (a new invite from the start screen)
  // said "Copied." of a link nobody had copied yet, the last table's.
  const said = (region) => {
    const el = root.querySelector(`[data-region=${region}]`);
    return el?.dataset.game === state.id ? el.textContent : "";
  };
  const copyNote = said("copy-note");
  // And Start refused stays said (a friend who came as the answer did wiped it unread).
  const problem = said("lobby-error");
  clear(root,
    h("header", { class: "hero" },
      h("h1", { tabindex: "-1" }, heading),
      h("p", { class: "tagline", "data-region": "lobby-line" }, line),
      h("p", { class: "hint", "data-region": "lobby-news", hidden: !news }, news),
      // The table's settings in one paragraph: at ten seats on a phone held sideways, one
      // more line pushed Start now below the fold.
      h("p", { class: "hint", "data-region": "lobby-settings" },
        h("span", { "data-region": "lobby-hints" }, hintsWords(table.hints !== false)), " ",
        h("span", { "data-region": "lobby-time" }, turnTimeWords(table.turn_time)))),
    invite ? invitePart(invite, actions, state.id) : null,
    table.can_start
      ? h("section", { class: "panel start-part" },
        h("button", { type: "button", class: "primary wide", "data-action": "start-table", onclick: actions.start },
          open || away.length ? "Start now" : "Start the game"),
        h("p", { class: "hint" }, hint))
      : h("p", { class: "panel waiting", "data-region": "waiting-host" }, hostWaitWords(state, open && !away.length)),
    h("p", { class: "error", role: "alert", "data-region": "lobby-error", "data-game": state.id, hidden: !problem },
      problem),
    // The seats last: at ten seats, or on a phone held sideways, the list would push the link
    // and Start now below the fold.
    h("section", { class: "panel", "aria-labelledby": "lobby-seats" },
      h("h2", { id: "lobby-seats" }, "Seats"),
      h("ul", { class: "lobby-seats", "data-region": "lobby-seats" },
        state.players.map((player) => seatLine(state, player, options)))));
  const note = root.querySelector("[data-region=copy-note]");
  if (note) note.textContent = copyNote;
  const again = focused && root.querySelector(focused);
  if (again) again.focus({ preventScroll: true });
}

/** What a friend in the lobby waits for: the last seat taken (`filling`), or the host; and
 * when the host's page has gone, that the host is not here (their friends read nothing but
 * "not connected" beside a name, and waited for a start that could not come). */
function hostWaitWords(state, filling) {
  const host = state.players[state.table.host_seat];
  const gone = host && host.person && !host.connected && !host.reconnecting;
  const name = host ? named(host.name) : "The host";
  if (gone) {
    return filling
      ? `${name} has left the lobby for now. The game starts by itself once every friend's seat is taken, or when ${name} comes back and starts it.`
      : `${name} has left the lobby for now: the game starts when ${name} comes back and starts it.`;
  }
  return filling
    ? "The game starts by itself once every friend's seat is taken, or when the host starts it."
    : "Waiting for the host to start the game.";
}

/** A selector that finds `el`'s part in the lobby drawn again: its action, region or id. */
function partOf(el) {
  for (const name of ["data-action", "data-region", "id"]) {
    const value = el.getAttribute(name);
    if (value) return name === "id" ? `#${CSS.escape(value)}` : `[${name}="${CSS.escape(value)}"]`;
  }
  return el.tagName === "H1" ? "h1" : null;
}

export function lobbyError(root, message) {
  const note = root.querySelector("[data-region=lobby-error]");
  if (!note) return;
  note.textContent = message;
  note.hidden = !message;
}

function seatLine(state, player, options) {
  const seat = player.seat;
  const opponent = options.opponents.find((o) => o.id === player.character);
  const me = isMe(state, seat);
  const position = me ? "" : where(state, seat);
  let kind;
  // Who sits there if nobody comes, in the words of the table's fill (the name says "Open seat"),
  // by the name of the character the server seats there if the table starts now: it follows
  // as people join, the lobby being drawn again from each state the stream brings.
  if (player.open) {
    const standIn = options.opponents.find((o) => o.id === player.stand_in);
    kind = waitingWords(state.table.fill, standIn?.name);
  }
  else if (player.person) {
    // Who made the table, and starts it: the others are told whom they wait for ("Waiting
    // for the host to start the game"). A rematch has no host: anyone there may start it.
    const host = !state.table.rematch_of && seat === state.table.host_seat;
    const who = host ? "Host" : FRIEND;
    if (player.away) kind = `${who} · not here yet`;
    else if (!me && player.reconnecting) kind = `${who} · reconnecting…`;
    // The name says "(you)" already: the line says what the others read there.
    else if (me) kind = who;
    else kind = player.connected === false ? `${who} · not connected` : who;
  }
  else kind = `Computer · ${player.level}`;
  const avatar = player.person || player.open
    ? h("span", { class: `initial${player.open ? " empty" : ""}`, "aria-hidden": "true" },
      player.open ? "?" : initial(player.name))
    : opponent ? face(opponent.face, "pleased") : h("span", { class: "initial", "aria-hidden": "true" }, "?");
  return h("li", {
    class: `lobby-seat${player.open ? " open" : ""}${me ? " mine" : ""}`,
    "data-seat": seat, "data-open": player.open ? "true" : "false",
  },
  avatar,
  h("span", { class: "who" },
    h("span", { class: "name" }, player.open ? "Open seat" : [h("bdi", {}, player.name), me ? " (you)" : ""]),
    h("span", { class: "level" }, dotted(kind))),
  position ? h("span", { class: "seat-word" }, position) : null);
}

function invitePart(link, actions, game) {
  const field = h("input", { type: "text", readonly: true, value: link, class: "invite-link",
    "data-region": "invite-link", "aria-label": "Invite link", onfocus: (e) => e.target.select() });
  const said = h("p", { class: "hint", "aria-live": "polite", "data-region": "copy-note", "data-game": game });
  const copy = async () => {
    let ok = false;
    try {
      await navigator.clipboard.writeText(link);
      ok = true;
    } catch {
      // No clipboard (an insecure page, a refusal): select the link for the person to copy.
      const box = field.isConnected ? field : document.querySelector("[data-region=invite-link]");
      box?.focus();
      box?.select();
      try {
        ok = document.execCommand("copy");
      } catch {
        ok = false;
      }
    }
    // The lobby may have been drawn anew while the clipboard took its time (a friend came):
    // then the note to write is the one on the page now, not this detached one.
    const note = said.isConnected ? said
      : document.querySelector(`[data-region=copy-note][data-game="${CSS.escape(game)}"]`);
    if (note) note.textContent = ok ? "Copied. Send it to your friends." : "Selected: copy it with your keyboard or menu.";
    actions.copied?.(ok);
  };
  const share = navigator.share
    ? h("button", { type: "button", "data-action": "share-invite", onclick: async () => {
      try {
        await navigator.share({ title: "Hearts", text: "Sit at my Hearts table:", url: link });
      } catch {
        // Closed without sharing: nothing to do.
      }
    } }, "Share")
    : null;
  return h("section", { class: "panel invite-part", "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title" }, "Invite your friends"),
    h("p", { class: "hint" }, "Send this link to the people you want at the table. Each one takes an open seat."),
    h("div", { class: "invite-row" }, field,
      h("button", { type: "button", class: "primary", "data-action": "copy-invite", onclick: copy }, "Copy"),
      share),
    said);
}

/** What the link opens, a fact a line: "A table of 6, to 100 points: Ann, 4 computer
 * players and one open seat.", the partners, the house rules, the coach, the clock. (One
 * grey paragraph hid a partnership or a bonus card from a friend about to join.) */
function tableFacts(invitation) {
  const { players, target_score: target, seated, open, computers } = invitation;
  const who = [...seated.map(named), computers ? plural(computers, "computer player") : "",
    open === 1 ? "one open seat" : `${open} open seats`];
  const rules = (invitation.house_rules || []).filter((label) => label !== "Partners");
  // A rule named with its choice has a colon of its own ("Bonus card: jack of diamonds"):
  // then the rules are parted by semicolons, which read apart from it.
  const ruleList = rules.some((name) => name.includes(":")) ? rules.join("; ") : listed(rules);
  return [
    `A table of ${players}, to ${plural(target, "point")}: ${listed(who.filter(Boolean))}.`,
    invitation.partnership ? "Partners: the players across from each other score together." : null,
    rules.length ? `House rules: ${ruleList}.` : null,
    hintsWords(invitation.hints !== false),
    turnTimeWords(invitation.turn_time),
  ].filter(Boolean);
}

/** Where the link seats the friend, from the host's seat as the host's lobby says it of
 * them ("on your left"): "You will sit on Ann's left.", "You will sit 2nd on Ann's right.",
 * "You will sit across from Ann." (at partners' tables: "you two are partners"); "" when
 * the server does not say (no seat for this link). */
function seatSentence(invitation) {
  const { seat, host_seat: hostSeat, host, players } = invitation || {};
  if (seat == null || hostSeat == null || !host || seat === hostSeat) return "";
  const word = sideWord((seat - hostSeat + players) % players, players);
  const name = named(host);
  if (word === "Across") {
    return `You will sit across from ${name}${invitation.partnership ? ": you two are partners" : ""}.`;
  }
  return `You will sit ${word.replace("On your", "on your").replace("your", `${name}'s`)}.`;
}

/** The page a friend's link opens: a name, then Join. onJoin(name) returns a promise.
 * `nameIssue`: why the name given was refused, said under the box. Returns `update(now)`,
 * which shows the table as the invitation says it is now (the seat the link gives, who is
 * seated, the open seats) and leaves the name typed as it is. */
export function renderJoin(root, { name, invitation, onJoin, problem, nameIssue }) {
  // The names taken: the people seated and the computer players (a friend called Bertie
  // beside the computer's Bertie could not be told apart).
  const takenBy = (now) => [...(now?.seated || []), ...(now?.characters || [])];
  let seated = takenBy(invitation);
  const error = h("p", { class: "error", role: "alert", "data-region": "join-error", hidden: !problem }, problem || "");
  const field = nameField({ id: "join-name", value: name, label: "Your name", onInput: () => {},
    taken: seated });
  const button = h("button", { type: "submit", class: "primary wide", "data-action": "join" }, "Join the table");
  const seatLine = h("p", { class: "join-seat", "data-region": "join-seat" });
  const facts = h("ul", { class: "join-facts", "data-region": "join-table" });
  const show = (now) => {
    const seat = seatSentence(now);
    seatLine.textContent = seat;
    seatLine.hidden = !seat;
    facts.hidden = !now;
    if (now) clear(facts, ...tableFacts(now).map((fact) => h("li", {}, fact)));
  };
  show(invitation);
  const form = h("form", { class: "panel join-form", novalidate: true, onsubmit: async (e) => {
    e.preventDefault();
    const wrong = nameProblem(field.input.value, seated);
    if (wrong) {
      // Said once, under the box (the alert above is for what the server answers).
      error.hidden = true;
      field.show(wrong);
      field.input.focus();
      return;
    }
    button.disabled = true;
    try {
      await onJoin(field.input.value.trim());
    } catch (refusal) {
      error.textContent = refusal.message;
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  } },
  h("h2", {}, "Your seat"), seatLine, facts, field.field, button);
  clear(root,
    h("header", { class: "hero" },
      h("h1", {}, "Hearts"),
      h("p", { class: "tagline" }, `${invitation?.host ? named(invitation.host) : "A friend"} invited you to their table. Tell them who you are.`)),
    error, form,
    h("nav", { class: "links", "aria-label": "More" },
      h("a", { href: "/rules" }, "How to play"),
      h("a", { href: "/" }, "Play against the computer instead")));
  if (nameIssue) field.show(nameIssue);
  field.input.focus();
  return (now) => {
    seated = takenBy(now);
    field.taken(seated);
    show(now);
  };
}

/** The page for a link that cannot seat anyone (the table is gone or the link is wrong). */
export function renderNoTable(root, message) {
  clear(root,
    h("header", { class: "hero" }, h("h1", {}, "Hearts")),
    h("p", { class: "error", role: "alert", "data-region": "join-error" }, message),
    h("nav", { class: "links" }, h("a", { href: "/" }, "Start a game of your own")));
}
