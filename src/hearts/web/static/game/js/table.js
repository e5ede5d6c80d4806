// The table: the opponents around it, the trick in the middle, the person's own score line,
// and the small signs (hearts broken, whose turn it is). Seats are built from the state the
// server sends: how many there are and which one is the person's.

import { h, clear, $ } from "./dom.js";
import { cardBack, cardFace, cardName, suitIcon } from "./cards.js";
import { face } from "./faces.js";
import { allSeats, compass, isMe, plural, where, whoIs } from "./words.js";

export class Table {
  constructor(root, opponents) {
    this.root = root;
    this.opponents = new Map(opponents.map((o) => [o.seat, o]));
    this.seats = new Map();
    this.slots = new Map();
    this.shape = "";
    this.trick = $("[data-region=trick]", root);
    this.mine = $("[data-region=me]", root);
    this.heartsSign = $("[data-region=hearts]", root);
    this.message = $("[data-region=message]", root);
  }

  /** Build a seat and a trick slot for every player, once per table shape. */
  build(state) {
    this.state = state;
    const shape = `${state.view.seat}/${state.view.players}`;
    if (shape === this.shape) return;
    this.shape = shape;
    for (const el of this.seats.values()) if (el !== this.mine) el.remove();
    this.seats.clear();
    clear(this.trick);
    this.slots.clear();
    const centre = $(".centre", this.root);
    for (const seat of allSeats(state)) {
      const pos = compass(state, seat);
      if (isMe(state, seat)) {
        this.mine.dataset.seat = seat;
        this.seats.set(seat, this.mine);
      } else {
        const el = h("div", { class: "seat opponent", "data-seat": seat, "data-pos": pos, role: "group" });
        this.root.insertBefore(el, centre);
        this.seats.set(seat, el);
      }
      const slot = h("div", { class: "slot", "data-slot": pos, "data-seat": seat });
      this.trick.append(slot);
      this.slots.set(seat, slot);
    }
  }

  /** Draw every seat: {state, pointsTaken, handSizes, turn, showPoints, taken}. */
  renderSeats({ state, pointsTaken, handSizes, turn, showPoints, taken }) {
    this.build(state);
    for (const seat of allSeats(state)) {
      const player = state.players[seat];
      const el = this.seats.get(seat);
      const points = pointsTaken[seat];
      const badge = showPoints ? pointsBadge(points, taken?.[seat]) : null;
      el.classList.toggle("turn", turn === seat);
      if (isMe(state, seat)) {
        clear(el,
          h("span", { class: "name" }, "You"),
          h("span", { class: "total", title: "Total score" }, `${state.scores[seat]}`,
            h("span", { class: "sr" }, " total")),
          badge);
        continue;
      }
      const opponent = this.opponents.get(seat);
      const partner = state.view.partner === seat;
      clear(el,
        h("div", { class: "avatar" }, opponent ? face(opponent.face, this.mood(points)) : null),
        h("div", { class: "who" },
          h("span", { class: "name" }, player.name),
          h("span", { class: "level" }, partner ? `${player.level}, your partner` : player.level)),
        h("div", { class: "numbers" },
          h("span", { class: "total", title: "Total score" }, `${state.scores[seat]}`,
            h("span", { class: "sr" }, " total")),
          badge),
        h("div", { class: "held", role: "img", "aria-label": `${plural(handSizes[seat], "card")} in hand` },
          h("span", { class: "fan" }, Array.from({ length: handSizes[seat] }, () => cardBack())),
          h("span", { class: "count" }, handSizes[seat])),
        this.quipFor(seat));
      el.setAttribute("aria-label", `${player.name}, ${where(state, seat)}`);
    }
  }

  mood(taken) {
    if (taken >= 13) return "glum";
    if (taken === 0) return "pleased";
    return "calm";
  }

  /** An opponent says something for a few seconds (kept while the seats are redrawn). */
  say(seat, text, ms = 3000) {
    const el = this.seats.get(seat);
    if (!el || !text) return;
    this.quips = this.quips || {};
    this.quips[seat] = { text, until: Date.now() + ms };
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
    return h("p", { class: "quip", hidden: !live, role: "note" }, live ? quip.text : "");
  }

  /** Show the trick on the table: [[seat, card], ...]; the first play is the lead. */
  showTrick(plays, winner = null) {
    for (const slot of this.slots.values()) clear(slot);
    plays.forEach(([seat, card], i) => this.place(seat, card, i === 0));
    this.markWinner(winner);
  }

  place(seat, card, led = false) {
    const who = whoIs(this.state, seat);
    const label = `${who} played the ${cardName(card)}${led ? ", the lead" : ""}`;
    const el = h("div", { class: "played", role: "img", "aria-label": label, "data-played": card },
      cardFace(card));
    const slot = this.slots.get(seat);
    slot.classList.toggle("led", led);
    clear(slot, el, led ? h("span", { class: "led-mark", "aria-hidden": "true" }, "led") : null);
    return el;
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
    this.message.textContent = text || "";
  }

  seatBox(seat) {
    const el = isMe(this.state, seat) ? this.slots.get(seat) : this.seats.get(seat);
    return el.getBoundingClientRect();
  }
}

/** Points this round, with what made them: a heart only for hearts, the Q♠ for the queen. */
function pointsBadge(points, taken) {
  const marks = [];
  if (taken?.hearts) marks.push(h("span", { class: "mark-hearts" }, suitIcon("H"), `${taken.hearts}`));
  if (taken?.queen) marks.push(h("span", { class: "mark-queen", title: "Took the queen of spades" }, "Q", suitIcon("S")));
  if (taken?.bonus) marks.push(h("span", { class: "mark-bonus", title: "Took the bonus card" },
    taken.bonus[0] === "T" ? "10" : taken.bonus[0], suitIcon(taken.bonus[1])));
  const said = [`${points === 1 ? "1 point" : `${points} points`} this round`];
  if (taken?.hearts) said.push(plural(taken.hearts, "heart"));
  if (taken?.queen) said.push("the queen of spades");
  if (taken?.bonus) said.push("the bonus card");
  return h("span", { class: `taken${points ? " some" : ""}`, title: "Points taken this round" },
    h("span", { class: "pts", "aria-hidden": "true" }, `${points}`),
    h("span", { class: "marks", "aria-hidden": "true" }, marks),
    h("span", { class: "sr" }, ` ${said.join(", ")}`));
}
