// The table: the three opponents around it, the trick in the middle, the person's own score
// line, and the small signs (hearts broken, the last trick, whose turn it is).

import { h, clear, $ } from "./dom.js";
import { cardFace, cardBack, cardName, suitIcon } from "./cards.js";
import { face } from "./faces.js";
import { plural, where } from "./words.js";

const POSITIONS = ["bottom", "left", "top", "right"];

export class Table {
  constructor(root, opponents, { onLastTrick }) {
    this.root = root;
    this.opponents = opponents;
    this.seats = [];
    this.slots = [];
    for (const opponent of opponents) {
      const seat = $(`[data-seat="${opponent.seat}"]`, root);
      this.seats[opponent.seat] = seat;
    }
    this.seats[0] = $('[data-seat="0"]', root);
    for (let seat = 0; seat < 4; seat++) {
      this.slots[seat] = $(`[data-slot="${POSITIONS[seat]}"]`, root);
    }
    this.heartsSign = $("[data-region=hearts]", root);
    this.message = $("[data-region=message]", root);
    this.lastTrickButton = $("[data-action=last-trick]", root);
    this.lastTrickButton.addEventListener("click", () => onLastTrick());
  }

  /** Draw every seat from `table`: {state, pointsTaken, handSizes, turn, showPoints}. */
  renderSeats({ state, pointsTaken, handSizes, turn, showPoints }) {
    for (const opponent of this.opponents) {
      const seat = opponent.seat;
      const player = state.players[seat];
      const el = this.seats[seat];
      const taken = pointsTaken[seat];
      const partner = state.view.rules.partnership && seat === 2;
      clear(el,
        h("div", { class: "avatar" }, face(opponent.face, this.mood(seat, taken))),
        h("div", { class: "who" },
          h("span", { class: "name" }, player.name),
          h("span", { class: "level" }, partner ? `${player.level}, your partner` : player.level)),
        h("div", { class: "numbers" },
          h("span", { class: "total", title: "Total score" }, `${state.scores[seat]}`,
            h("span", { class: "sr" }, " total")),
          showPoints ? pointsBadge(taken) : null),
        h("div", { class: "held", role: "img", "aria-label": `${plural(handSizes[seat], "card")} in hand` },
          h("span", { class: "fan" }, Array.from({ length: handSizes[seat] }, () => cardBack())),
          h("span", { class: "count" }, handSizes[seat])),
        this.quipFor(seat));
      el.setAttribute("aria-label", `${player.name}, ${where(seat)}`);
      el.classList.toggle("turn", turn === seat);
    }
    const me = this.seats[0];
    clear(me,
      h("span", { class: "name" }, "You"),
      h("span", { class: "total", title: "Total score" }, `${state.scores[0]}`,
        h("span", { class: "sr" }, " total")),
      showPoints ? pointsBadge(pointsTaken[0]) : null);
    me.classList.toggle("turn", turn === 0);
  }

  mood(seat, taken) {
    if (taken >= 13) return "glum";
    if (taken === 0) return "pleased";
    return "calm";
  }

  /** An opponent says something for a few seconds (kept while the seats are redrawn). */
  say(seat, text, ms = 3000) {
    this.quips = this.quips || {};
    this.quips[seat] = { text, until: Date.now() + ms };
    const old = $(".quip", this.seats[seat]);
    if (old) old.replaceWith(this.quipFor(seat));
    setTimeout(() => {
      const bubble = $(".quip", this.seats[seat]);
      if (bubble && Date.now() >= this.quips[seat].until) bubble.hidden = true;
    }, ms);
  }

  quipFor(seat) {
    const quip = this.quips?.[seat];
    const live = quip && Date.now() < quip.until;
    return h("p", { class: "quip", hidden: !live, role: "note" }, live ? quip.text : "");
  }

  /** Show the trick on the table: [[seat, card], ...]. */
  showTrick(plays, winner = null) {
    for (let seat = 0; seat < 4; seat++) clear(this.slots[seat]);
    for (const [seat, card] of plays) this.place(seat, card);
    this.markWinner(winner);
  }

  place(seat, card) {
    const el = h("div", { class: "played", role: "img", "aria-label": cardName(card), "data-played": card },
      cardFace(card));
    clear(this.slots[seat], el);
    return el;
  }

  markWinner(winner) {
    for (let seat = 0; seat < 4; seat++) {
      this.slots[seat].classList.toggle("winner", seat === winner);
    }
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

  setLastTrick(available) {
    this.lastTrickButton.hidden = !available;
  }

  seatBox(seat) {
    return (seat === 0 ? this.slots[0] : this.seats[seat]).getBoundingClientRect();
  }
}

function pointsBadge(points) {
  return h("span", { class: `taken${points ? " some" : ""}`, title: "Points taken this round" },
    suitIcon("H"), `${points}`, h("span", { class: "sr" }, ` ${points === 1 ? "point" : "points"} this round`));
}
