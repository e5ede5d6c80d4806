// The table: the opponents around it, the trick in the middle, the person's own score line,
// and the small signs (hearts broken, whose turn it is). Seats are built from the state the
// server sends: how many there are and which one is the person's.

import { h, clear, $ } from "./dom.js";
import { cardBack, cardFace, cardName, cardSymbol, spoken, suitIcon } from "./cards.js";
import { face } from "./faces.js";
import { allSeats, compass, initial, isMe, named, offsetOf, plural, score, where, whoIs } from "./words.js";
import { isFriends, kindLine, reconnecting, seatConnected, seatGone, seatSigns } from "./friends.js";

export class Table {
  constructor(root, opponents) {
    this.root = root;
    this.opponents = new Map(opponents.map((o) => [o.id, o]));
    this.seats = new Map();
    this.slots = new Map();
    this.shape = "";
    this.trick = $("[data-region=trick]", root);
    this.mine = $("[data-region=me]", root);
    this.heartsSign = $("[data-region=hearts]", root);
    this.message = $("[data-region=message]", root);
    // Signs of the other tables: a trick held over (two decks), the kitty, the teams.
    const signs = $(".signs", root);
    this.heldSign = h("p", { class: "table-sign held-sign", "data-region": "held", hidden: true });
    this.kittySign = h("p", { class: "table-sign kitty-sign", "data-region": "kitty", hidden: true });
    this.teamSign = h("p", { class: "table-sign team-sign", "data-region": "teams", hidden: true });
    signs.append(this.heldSign, this.kittySign, this.teamSign);
    // The arrows go from card to card of the trick (`tabStops`).
    this.trick.addEventListener("keydown", (event) => this.trickKeys(event));
    // The ring's places follow the room it is given (the screen's size, the text's).
    new ResizeObserver(() => this.placeRing()).observe(this.trick);
    // A seat's "Computer · medium" fits its line or not as the seat's room changes (the
    // screen, the text's size, a name beside it): each side and each seat's words (`build`).
    this.levelRoom = new ResizeObserver(() => this.fitLevelsSoon());
  }

  /** Build a seat and a trick slot for every player, once per table shape. The opponents
   * sit along three sides, clockwise from the person's left: up the left side, across the
   * top, down the right side; how many go on each side follows the screen's shape. */
  build(state) {
    this.state = state;
    const wide = matchMedia("(orientation: landscape)").matches;
    const shape = `${state.view.seat}/${state.view.players}/${wide}`;
    if (shape === this.shape) return;
    this.shape = shape;
    for (const el of this.seats.values()) if (el !== this.mine) el.remove();
    for (const el of this.sides || []) el.remove();
    this.levelRoom.disconnect(); // the seats and sides gone; the new ones are observed below
    this.seats.clear();
    clear(this.trick);
    this.slots.clear();
    const count = state.view.players;
    this.root.dataset.players = count;
    this.trick.dataset.players = count;
    // How many places the ring has, for its size (game.css).
    this.trick.style.setProperty("--n", count);
    this.root.dataset.crowded = count >= 5 ? "true" : "false";
    const centre = $(".centre", this.root);
    const opponents = allSeats(state).filter((seat) => !isMe(state, seat))
      .sort((a, b) => offsetOf(state, a) - offsetOf(state, b));
    const [left, top] = sideCounts(opponents.length, wide);
    const sides = {
      left: h("div", { class: "side", "data-side": "left", "data-count": left }),
      top: h("div", { class: "side", "data-side": "top", "data-count": opponents.length - 2 * left }),
      right: h("div", { class: "side", "data-side": "right", "data-count": left }),
    };
    this.sides = Object.values(sides);
    // Each seat's share of its side, for its speech bubble (game.css): a bubble no wider
    // than its share cannot reach the next seat's.
    for (const side of this.sides) side.style.setProperty("--seats", Math.max(1, side.dataset.count));
    for (const side of this.sides) {
      this.root.insertBefore(side, centre);
      this.levelRoom.observe(side);
    }
    const sideOf = new Map();
    opponents.forEach((seat, i) => {
      const side = i < left ? "left" : i < left + top ? "top" : "right";
      sideOf.set(seat, side);
      // The parts are made once; renderSeats fills each one again only when what it shows
      // changes (a move used to rebuild every seat: its face, words and fan of cards).
      const el = h("div", { class: "seat opponent", "data-seat": seat, "data-pos": side, role: "group" },
        h("div", { class: "avatar" }),
        h("div", { class: "who" }),
        h("div", { class: "numbers" }),
        h("div", { class: "held", role: "img" }, h("span", { class: "fan" }), h("span", { class: "count" })),
        this.quipFor(seat));
      // Up the left side: the first on the left sits lowest.
      if (side === "left") sides.left.prepend(el);
      else sides[side].append(el);
      this.seats.set(seat, el);
      this.levelRoom.observe($(".who", el));
    });
    this.mine.dataset.seat = state.view.seat;
    // The person's own seat is named too, as the others' are ("Bea, you" among friends).
    this.mine.setAttribute("role", "group");
    this.mine.setAttribute("aria-label", state.table?.friends ? `${state.players[state.view.seat].name}, you` : "You");
    this.seats.set(state.view.seat, this.mine);
    for (const seat of allSeats(state)) {
      // Round an ellipse, the person's card at the bottom, clockwise from there (at four
      // seats: bottom, left, top, right). `data-pos` names the compass side for the words.
      const slot = h("div", { class: "slot", "data-slot": "ring", "data-pos": compass(state, seat), "data-seat": seat });
      // With nobody across the top (a seat on each side), each card goes to its player's
      // side: round the whole ring, the two would overlap the person's card above it.
      const side = top ? null : sideOf.get(seat);
      const angle = side ? (side === "left" ? Math.PI : 0)
        : Math.PI / 2 + (offsetOf(state, seat) * 2 * Math.PI) / count;
      slot.style.setProperty("--cx", Math.cos(angle).toFixed(4));
      slot.style.setProperty("--cy", Math.sin(angle).toFixed(4));
      slot.dataset.upper = String(Math.sin(angle) < -0.01);
      slot.dataset.offset = side ? "" : offsetOf(state, seat);
      // The lower card lies over the one above it, whatever the order of play: a card
      // covers only the foot of the one above, and every card's rank and suit, at its top
      // corner, stay in sight (ten players: the card above hid the corner of the one below).
      // The winner's is one higher (game.css): over a card at its own height, whatever the
      // order of the seats, and under every lower one (no two heights on a ring are one apart).
      slot.style.setProperty("--z", String(20 + Math.round(Math.sin(angle) * 10)));
      if (!side) slot.dataset.wins = winsSide(offsetOf(state, seat), count);
      // Who played a card: a pointer on it lights its player's seat (at ten players a card
      // was known only by its place round the ring).
      slot.addEventListener("pointerenter", () => this.pointAt(seat, true));
      slot.addEventListener("pointerleave", () => this.pointAt(seat, false));
      // So does the keyboard's focus on it (the trick's one tab stop, see `trickKeys`).
      slot.addEventListener("focusin", () => this.focusAt(seat, true));
      slot.addEventListener("focusout", () => this.focusAt(seat, false));
      this.trick.append(slot);
      this.slots.set(seat, slot);
    }
    this.placeRing();
  }

  /** Space the cards round the ring so that none lies over another's corner. At equal angles
   * round a flat ring the cards bunch at its ends and spread along its top and foot: ten
   * players on a desktop, the card under another hid a quarter of it; on a phone held
   * sideways half. Where equal angles make cards overlap, they go at equal steps along
   * the ring instead, the person's card still at its foot. */
  placeRing() {
    const slots = [...this.slots.values()].filter((slot) => slot.dataset.offset !== "");
    if (slots.length < 2 || slots.length !== this.slots.size) return;
    const box = [this.trick.clientWidth, this.trick.clientHeight];
    const card = [slots[0].offsetWidth, slots[0].offsetHeight];
    if (!box[0] || !card[0]) return; // not drawn (another screen is showing)
    const places = ringPlaces(slots.length, box, card);
    for (const slot of slots) {
      const [cx, cy] = places[Number(slot.dataset.offset)];
      slot.style.setProperty("--cx", cx.toFixed(4));
      slot.style.setProperty("--cy", cy.toFixed(4));
      // A focused card's words go under it in the ring's upper half (game.css): over it,
      // they lay over the seats across the top, its own player's among them.
      slot.dataset.upper = String(cy < -0.01);
    }
  }

  /** Draw every seat: {state, pointsTaken, handSizes, turn, showPoints, taken}. A part of a
   * seat that would show the same as it does is left alone (see `redraw`). */
  renderSeats({ state, pointsTaken, handSizes, turn, showPoints, taken }) {
    this.build(state);
    const friends = isFriends(state);
    let levels = false; // whether a seat's line under its name was drawn again
    for (const seat of allSeats(state)) {
      const player = state.players[seat];
      const el = this.seats.get(seat);
      const points = pointsTaken[seat];
      const marks = taken?.[seat];
      const badge = () => (showPoints ? pointsBadge(points, marks) : null);
      // Everything the total and the badge show (their words for a screen reader as well).
      const numbers = [state.scores[seat],
        showPoints ? [points, marks?.hearts, marks?.queen, marks?.bonus, marks?.bonuses] : null];
      el.classList.toggle("turn", turn === seat);
      el.classList.toggle("person", Boolean(player.person) && friends);
      el.classList.toggle("away", Boolean(player.away));
      if (isMe(state, seat)) {
        redraw(el, [numbers, signsKey(state, seat)], () => [
          h("span", { class: "name" }, "You"),
          total(state.scores[seat]),
          badge(),
          seatSigns(state, seat),
          friends ? this.quipFor(seat) : null]);
        continue;
      }
      const [avatar, who, numbersBox, held] = el.children;
      const opponent = this.opponents.get(player.character);
      const partner = state.view.partner === seat;
      // At a table with friends a person has an initial, a computer player its face.
      const person = friends && player.person;
      const mood = this.mood(points);
      redraw(avatar, [person, player.name, player.character, mood], () => (person
        ? h("span", { class: "initial", "aria-hidden": "true" }, initial(player.name))
        : opponent ? face(opponent.face, mood) : null));
      const kind = friends ? kindLine(state, seat) : player.level;
      const level = partner ? `${kind}, your partner` : kind;
      levels = redraw(who, [player.name, level, signsKey(state, seat)], () => [
        // The whole name on hover, where the seat has room for only part of it.
        h("span", { class: "name", dir: "auto", title: player.name }, player.name),
        levelLine(level),
        seatSigns(state, seat)]) || levels;
      redraw(numbersBox, numbers, () => [total(state.scores[seat]), badge()]);
      showHeld(held, handSizes[seat]);
      setLabel(el, `${player.name}, ${where(state, seat)}`);
    }
    if (levels) this.fitLevels();
  }

  /** "Computer" over "medium", without the dot, where "Computer · medium" does not fit on
   * one line (a side seat on a phone read "Computer ·" / "medium"). Measured whole each
   * time, as the room changes; a line not drawn (another screen showing) is left as it is. */
  fitLevels() {
    const lines = [...this.root.querySelectorAll(".seat .level")].filter((el) => $(".level-sep", el));
    for (const el of lines) delete el.dataset.stacked;
    const stacked = lines.map((el) => {
      const parts = [...el.children].filter((part) => part.matches(".level-part"));
      const first = parts[0].getClientRects();
      const last = parts[parts.length - 1].getClientRects();
      if (!first.length || !last.length) return false;
      // The second part starts on a line below the end of the first one.
      return last[0].top >= first[first.length - 1].bottom - 1;
    });
    lines.forEach((el, i) => { if (stacked[i]) el.dataset.stacked = "true"; });
  }

  /** `fitLevels` at the next frame, once for every change of room before it (from a
   * ResizeObserver: a change of size made in its own call would go unreported). */
  fitLevelsSoon() {
    if (this.levelFrame) return;
    this.levelFrame = requestAnimationFrame(() => {
      this.levelFrame = null;
      this.fitLevels();
    });
  }

  mood(taken) {
    if (taken >= 13) return "glum";
    if (taken === 0) return "pleased";
    return "calm";
  }

  /** An opponent says something for a few seconds (kept while the seats are redrawn).
   * `named`: whether the bubble starts with who speaks; news that names them already
   * ("Fox asked the coach for a hint.") would name them twice. */
  say(seat, text, ms = 3000, { named: speaker = true } = {}) {
    const el = this.seats.get(seat);
    if (!el || !text) return;
    this.quips = this.quips || {};
    this.quips[seat] = { text, until: Date.now() + ms, speaker };
    const old = $(".quip", el);
    if (old) old.replaceWith(this.quipFor(seat));
    setTimeout(() => {
      const bubble = $(".quip", this.seats.get(seat));
      if (bubble && Date.now() >= this.quips[seat].until) bubble.hidden = true;
    }, ms);
  }

  quipFor(seat) {
    const quip = this.quips?.[seat];
    const live = quip && Date.now() < quip.until;
    // Who speaks, for the bubble's first words where it covers its speaker's name (game.css).
    const who = live && !quip.speaker ? null : this.state?.players[seat]?.name;
    return h("p", { class: "quip", hidden: !live, role: "note", "data-who": who ? named(who) : null },
      live ? quip.text : "");
  }

  /** Show the trick on the table: [[seat, card], ...]; the first play is the lead. */
  showTrick(plays, winner = null) {
    // Mostly the trick is on the table already, placed card by card as it was played.
    if (!this.showing(plays)) {
      const focused = this.focusedSeat();
      for (const slot of this.slots.values()) {
        clear(slot);
        slot.classList.remove("cancelled");
      }
      for (const seat of this.seats.values()) seat.classList.remove("pointed");
      this.hovered = null;
      this.focused = null;
      plays.forEach(([seat, card], i) => this.place(seat, card, i === 0));
      // The keyboard was on a card of the trick: it stays on that player's card, or the lead,
      // or goes to the hand when the trick is gone (never to the page, where a screen reader
      // says nothing).
      if (focused !== null) {
        const card = $(".played", this.slots.get(focused)) || this.cardsInPlay()[0];
        if (card) {
          this.tabStops(card);
          card.focus({ preventScroll: true });
        } else {
          $("[data-region=hand]", this.root)?.focus({ preventScroll: true });
        }
      }
    }
    this.markWinner(winner);
  }

  /** The trick's cards in the order they were played, from the lead round the table. */
  cardsInPlay() {
    const count = this.slots.size;
    const lead = [...this.slots].find(([, slot]) => slot.classList.contains("led"))?.[0] ?? 0;
    return [...this.slots]
      .map(([seat, slot]) => [(seat - lead + count) % count, $(".played", slot)])
      .filter(([, card]) => card)
      .sort((a, b) => a[0] - b[0])
      .map(([, card]) => card);
  }

  /** The seat whose card of the trick has the keyboard's focus, or null. */
  focusedSeat() {
    const active = document.activeElement;
    const slot = active && this.trick.contains(active) ? active.closest(".slot") : null;
    return slot ? Number(slot.dataset.seat) : null;
  }

  /** The trick is one tab stop, a card of it (the one last focused, else the lead): the
   * arrows go from card to card in the order they were played, Home and End to the lead
   * and the last. With no card on the table there is no stop, and Tab goes by. */
  tabStops(stop = null) {
    const cards = this.cardsInPlay();
    const keep = stop || cards.find((card) => card.tabIndex === 0) || cards[0];
    for (const card of cards) card.tabIndex = card === keep ? 0 : -1;
  }

  /** An arrow, Home or End on a card of the trick: the focus to the next card played, the
   * one before, the lead or the last (round from the last to the lead, as in the hand). */
  trickKeys(event) {
    const cards = this.cardsInPlay();
    const index = cards.indexOf(event.target);
    if (index < 0) return;
    const next = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1,
      Home: 0, End: cards.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const card = cards[(next + cards.length) % cards.length];
    this.tabStops(card);
    card.focus({ preventScroll: true });
  }

  /** Whether the slots hold exactly these plays, the first one marked as the lead. */
  showing(plays) {
    const wanted = new Map(plays.map(([seat, card], i) => [seat, [card, i === 0]]));
    for (const [seat, slot] of this.slots) {
      const [card, led] = wanted.get(seat) || [undefined, false];
      if ($(".played", slot)?.dataset.played !== card) return false;
      if (card && slot.classList.contains("led") !== led) return false;
    }
    return true;
  }

  place(seat, card, led = false) {
    const who = whoIs(this.state, seat);
    const label = `${who} played the ${cardName(card)}${led ? ", the lead" : ""}`;
    // Its player's name and the card on a pointer's hover, too ("Marisol: Q♠", "You: 7♥").
    const el = h("div", { class: "played", role: "img", "aria-label": label, "data-played": card,
      title: `${who}: ${cardSymbol(card)}` }, cardFace(card));
    const slot = this.slots.get(seat);
    slot.classList.toggle("led", led);
    slot.classList.remove("cancelled");
    clear(slot, el, led ? h("span", { class: "led-mark", "aria-hidden": "true" }, "led") : null);
    this.tabStops();
    // Two decks: the second copy of a face on one trick cancels both (they count for
    // nothing and cannot win).
    for (const [other, otherSlot] of this.slots) {
      if (other !== seat && otherSlot.querySelector(`[data-played="${card}"]`)) {
        for (const pair of [slot, otherSlot]) this.cancel(pair);
      }
    }
    return el;
  }

  cancel(slot) {
    if (slot.classList.contains("cancelled")) return;
    slot.classList.add("cancelled");
    const played = $(".played", slot);
    if (played) played.setAttribute("aria-label", `${played.getAttribute("aria-label")}, cancelled by its twin`);
    slot.append(h("span", { class: "cancel-mark", "aria-hidden": "true" }, "cancelled"));
  }

  /** Two decks: the cards of a trick that cancelled out entirely, waiting for the next
   * trick's winner. */
  setHeld(cards) {
    const n = cards ? cards.length : 0;
    this.heldSign.hidden = n === 0;
    if (!n) return;
    const points = cards.reduce((sum, c) => sum + (c === "QS" ? 13 : c[1] === "H" ? 1 : 0), 0);
    this.heldSign.textContent = `Held over: ${plural(n, "card")}${points ? `, ${plural(points, "point")}` : ""}`;
    this.heldSign.title = `For the next trick's winner: ${cards.map(cardName).join(", ")}`;
  }

  /** The kitty: face down until someone takes it, then who did and what was in it. */
  setKitty(state) {
    const view = state.view;
    this.kittySign.hidden = !view.kitty_size;
    if (!view.kitty_size) return;
    if (view.kitty_taker === null || view.kitty_taker === undefined) {
      clear(this.kittySign, `Kitty: ${plural(view.kitty_size, "card")} face down`);
      return;
    }
    const who = isMe(state, view.kitty_taker) ? "You" : named(state.players[view.kitty_taker].name);
    clear(this.kittySign, `${who} took the kitty: `,
      h("span", { class: "kitty-cards" }, (view.kitty || []).map((card) =>
        h("span", { class: "mini", role: "img", "aria-label": cardName(card) }, cardFace(card)))));
  }

  /** Partnerships: the person's team and the other, with their totals. */
  setTeams(state) {
    const partner = state.view.partner;
    this.teamSign.hidden = partner === null || partner === undefined;
    if (this.teamSign.hidden) return;
    const me = state.view.seat;
    const mine = [me, partner];
    const others = allSeats(state).filter((seat) => !mine.includes(seat));
    const names = (seats) => seats.map((seat) => whoIs(state, seat)).join(" & ");
    clear(this.teamSign,
      h("span", { class: "team mine-team" }, `${names(mine)} ${score(state.scores[me])}`),
      " · ",
      h("span", { class: "team" }, `${names(others)} ${score(state.scores[others[0]])}`));
  }

  /** Light the seat of the player of the card under a pointer (`on`), or no longer. */
  pointAt(seat, on) {
    this.hovered = on ? seat : this.hovered === seat ? null : this.hovered;
    this.light();
  }

  /** Light the seat of the player of the card with the keyboard's focus, or no longer. */
  focusAt(seat, on) {
    this.focused = on ? seat : this.focused === seat ? null : this.focused;
    this.light();
  }

  /** The seats lit: the player of the card under the pointer and of the focused card (the
   * pointer going off a card leaves the focused one's player lit). */
  light() {
    for (const [seat, el] of this.seats) {
      const card = $(".played", this.slots.get(seat));
      el.classList.toggle("pointed", Boolean(card) && (seat === this.hovered || seat === this.focused));
    }
  }

  markWinner(winner) {
    for (const [seat, slot] of this.slots) slot.classList.toggle("winner", seat === winner);
  }

  clearTrick() {
    this.showTrick([]);
  }

  setHearts(broken) {
    this.heartsSign.hidden = !broken;
    clear(this.heartsSign, suitIcon("H"), " Hearts broken");
  }

  setMessage(text) {
    clear(this.message, spoken(text || "")); // a card in symbols is said by its name
  }

  seatBox(seat) {
    const el = isMe(this.state, seat) ? this.slots.get(seat) : this.seats.get(seat);
    return el.getBoundingClientRect();
  }
}

// What each part of a seat shows, as a key: a part is filled again only when its key changes.
const shown = new WeakMap();

/** Fill `box` with `make()` unless it already shows `key` (anything JSON can write); whether
 * it was filled again. */
function redraw(box, key, make) {
  const now = JSON.stringify(key);
  if (shown.get(box) === now) return false;
  shown.set(box, now);
  clear(box, make());
  return true;
}

/** The line under a seat's name: "Computer · medium" in its two parts and the dot between
 * them, so that where it does not fit on one line it is "Computer" over "medium" (game.css,
 * `Table.fitLevels`); words without a dot as they are. */
function levelLine(words) {
  const [kind, ...rest] = words.split(" · ");
  if (!rest.length) return h("span", { class: "level" }, words);
  return h("span", { class: "level" },
    h("span", { class: "level-part" }, kind),
    h("span", { class: "level-sep" }, " · "),
    h("span", { class: "level-part" }, rest.join(" · ")));
}

/** What `seatSigns` shows for a seat (its timer's countdown is the TurnClock's own; its dot
 * is not known while the page reconnects, and drawn again once it is back; "Not here" comes
 * a while after the page closed, with nothing else changed). */
function signsKey(state, seat) {
  const player = state.players[seat];
  return isFriends(state)
    ? [Boolean(player.person), seatConnected(state, seat), Boolean(player.away), reconnecting(),
      Boolean(player.reconnecting), seatGone(state, seat)]
    : null;
}

function total(points) {
  return h("span", { class: "total", title: "Total score" }, score(points), h("span", { class: "sr" }, " total"));
}

/** The cards in an opponent's hand, face down: the fan gains or loses backs to match. */
function showHeld(held, count) {
  const [fan, number] = held.children;
  while (fan.childElementCount > count) fan.lastElementChild.remove();
  while (fan.childElementCount < count) fan.append(cardBack());
  if (number.textContent !== String(count)) number.textContent = count;
  setLabel(held, `${plural(count, "card")} in hand`);
  // An empty hand (the round played out) shows nothing: a lone "0" under the score read as
  // a second score. Hidden, not removed, so the seat keeps its size.
  held.style.visibility = count ? "" : "hidden";
}

function setLabel(el, label) {
  if (el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label);
}

/** How many opponents sit up the left side and across the top (the right side mirrors the
 * left). A tall screen stacks more down the sides, a wide one puts more across the top. */
export function sideCounts(opponents, wide) {
  if (opponents < 2) return [0, opponents];
  const side = Math.max(1, Math.round(opponents / 3));
  const left = wide ? Math.min(2, side) : side;
  return [left, opponents - 2 * left];
}

/** The places of `count` cards of size `card` ([width, height]) round a ring filling `box`:
 * [x, y] of each one's middle, from -1 to 1 across and down the room for the middles, the
 * person's (offset 0) at the foot, then clockwise. At equal angles round an ellipse when no
 * two cards meet there (a ring as it always was). Else at equal steps along the ring, and
 * the flatter the room, the squarer the ring: round a flat ellipse the cards bunched at its
 * two ends, one over the other (ten players on a phone held sideways, a card a quarter
 * under the next); along a ring with straighter sides they lie in two rows. Whichever
 * shape lays cards least over each other. */
export function ringPlaces(count, box, card) {
  const [a, b] = [(box[0] - card[0]) / 2, (box[1] - card[1]) / 2];
  const angles = (n) => Array.from({ length: n }, (_, k) => Math.PI / 2 + (k * 2 * Math.PI) / n);
  // A superellipse: an ellipse at 2, nearer a rectangle with rounded corners above it.
  const curve = (power) => (t) => [Math.cos(t), Math.sin(t)]
    .map((v) => Math.sign(v) * Math.abs(v) ** (2 / power));
  // Equal steps of the ring's length from the foot, clockwise, found in small steps.
  const stepped = (point) => {
    const steps = 720;
    const points = angles(steps + 1).map((t, i) => point(t + (i === steps ? 2 * Math.PI : 0)));
    const lengths = [0];
    for (let i = 1; i <= steps; i++) {
      const [[x0, y0], [x1, y1]] = [points[i - 1], points[i]];
      lengths.push(lengths[i - 1] + Math.hypot(a * (x1 - x0), b * (y1 - y0)));
    }
    return Array.from({ length: count }, (_, k) => {
      const want = (k * lengths[steps]) / count;
      let i = 1;
      while (i < steps && lengths[i] < want) i++;
      const part = (want - lengths[i - 1]) / ((lengths[i] - lengths[i - 1]) || 1);
      const [[x0, y0], [x1, y1]] = [points[i - 1], points[i]];
      return [x0 + (x1 - x0) * part, y0 + (y1 - y0) * part];
    });
  };
  // The most that any card lies over another, as a share of a card.
  const most = (places) => {
    let worst = 0;
    for (const [i, [x1, y1]] of places.entries()) {
      for (const [x2, y2] of places.slice(i + 1)) {
        const w = card[0] - Math.abs(a * (x1 - x2));
        const h = card[1] - Math.abs(b * (y1 - y2));
        if (w > 0 && h > 0) worst = Math.max(worst, (w * h) / (card[0] * card[1]));
      }
    }
    return worst;
  };
  const shapes = [angles(count).map(curve(2)), ...[2, 3, 4, 6].map((power) => stepped(curve(power)))];
  const overlaps = shapes.map(most);
  // A shape is taken over the ones before it only for a card's share less laid over.
  let best = 0;
  overlaps.forEach((share, i) => { if (share < overlaps[best] - 0.005) best = i; });
  return shapes[best];
}

/** Where the winner's "★ wins" goes on a ring of `count` cards, for the card at `offset`
 * from the person's, when there is no room under the card (a phone held sideways): beside
 * it, towards a neighbour higher on the ring, whose card lies under this one; towards a
 * lower one, whose card lies over this one, the mark was out of sight (ten players). Over
 * the card when neither neighbour is higher (the top of the ring). At either end of the
 * ring, out of it: on the left, beside the card; on the right, where the table's message
 * begins beside the ring, across the middle of the card itself ("middle"), whose corner
 * still shows what it is. */
export function winsSide(offset, count) {
  const at = (k) => Math.PI / 2 + (k * 2 * Math.PI) / count;
  const own = at(offset);
  const out = Math.cos(own) < 0 ? "left" : "middle";
  // At the very end of the ring (eight players), the way out of it: towards the higher
  // neighbour, the card below, at its end of a ring flattened to the room (a phone 360 px
  // tall), lay over the mark.
  if (Math.abs(Math.cos(own)) > 0.999) return out;
  const higher = [at(offset + 1), at(offset - 1)].filter((a) => Math.sin(a) < Math.sin(own) - 0.01);
  if (!higher.length) return "above";
  // Straight over it (the left and right ends of a ring of ten), the way out of the ring.
  const step = Math.cos(higher[higher.length - 1]) - Math.cos(own);
  if (Math.abs(step) < 0.01) return out;
  return step < 0 ? "left" : "right";
}

/** Points this round, with what made them: a heart only for hearts, the Q♠ for the queen. */
export function pointsBadge(points, taken) {
  const marks = [];
  if (taken?.hearts) marks.push(h("span", { class: "mark-hearts" }, suitIcon("H"), `${taken.hearts}`));
  // Two decks: one seat may take both copies of the queen or the bonus card ("Q♠×2").
  const twice = (n) => (n > 1 ? `×${n}` : null);
  if (taken?.queen) marks.push(h("span", { class: "mark-queen", title: "Took the queen of spades" }, "Q", suitIcon("S"), twice(taken.queen)));
  if (taken?.bonus) marks.push(h("span", { class: "mark-bonus", title: "Took the bonus card" },
    taken.bonus[0] === "T" ? "10" : taken.bonus[0], suitIcon(taken.bonus[1]), twice(taken.bonuses)));
  const said = [`${points === 1 ? "1 point" : `${points} points`} this round`];
  if (taken?.hearts) said.push(plural(taken.hearts, "heart"));
  if (taken?.queen) said.push(taken.queen > 1 ? "both queens of spades" : "the queen of spades");
  if (taken?.bonus) said.push(taken.bonuses > 1 ? "both bonus cards" : "the bonus card");
  return h("span", { class: `taken${points ? " some" : ""}`, title: "Points taken this round" },
    // "+3": what the round adds to the total beside it, as a score sheet writes it ("−10"
    // for a bonus card taken, never "+-10"; "+0" beside a total of 0).
    h("span", { class: "pts", "aria-hidden": "true" }, points < 0 ? score(points) : `+${points}`),
    h("span", { class: "marks", "aria-hidden": "true" }, marks),
    h("span", { class: "sr" }, ` ${said.join(", ")}`));
}
