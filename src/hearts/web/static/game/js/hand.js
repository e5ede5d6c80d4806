// The person's hand: card buttons laid out to fit the screen (two rows on a phone, so every
// card keeps a 44 px target), selection for the pass, legal and dimmed cards for play, and
// arrow-key movement between cards.

import { h, clear } from "./dom.js";
import { cardFace, cardName, sortCards } from "./cards.js";

const MIN_STEP = 44;
/** Less of a card than this in sight (px), and a scatter's name tag runs up its edge. */
const NARROW = 48;

/**
 * Where a hand too wide for one row breaks into two: at the change of suit nearest the middle
 * whose rows both keep every card's 44 px (or, where halves cannot, no row longer than a
 * half), else at the middle. Halves split a suit across the rows (six players, two decks: a
 * 4♠ ended the first row and its twin began the second).
 */
export function rowBreak(buttons, fitsRow) {
  const n = buttons.length;
  const half = Math.ceil(n / 2);
  let longest = half;
  while (longest < n && fitsRow(longest + 1)) longest += 1;
  let best = null;
  for (let k = 1; k < n; k += 1) {
    if (buttons[k].dataset.card[1] === buttons[k - 1].dataset.card[1]) continue;
    if (k > longest || n - k > longest) continue;
    if (best === null || Math.abs(k - half) < Math.abs(best - half)) best = k;
  }
  return best ?? half;
}

export class Hand {
  constructor(root, { onCard }) {
    this.root = root;
    this.onCard = onCard;
    this.buttons = new Map();
    this.order = [];
    root.addEventListener("keydown", (event) => this.keydown(event));
    // Whichever card has the focus is the hand's one tab stop, so Tab leaves the hand.
    root.addEventListener("focusin", (event) => {
      if (!event.target?.dataset?.card) return;
      for (const other of this.buttons.values()) other.tabIndex = other === event.target ? 0 : -1;
    });
    new ResizeObserver(() => this.layout()).observe(root);
  }

  /**
   * mode: "pass" (pick cards), "play" (the person's turn), or "wait".
   * legal: Set of playable cards (play mode); reasons: card -> why not.
   */
  render({ cards, mode, legal = new Set(), reasons = {}, selected = new Set(), received = [], tags = new Map(), givers = new Map() }) {
    // The same hand drawn again (a table with people redraws on every message) is left as
    // it is: building the cards and laying them out again costs a layout each time.
    const drawn = JSON.stringify([cards, mode, [...legal], reasons, [...selected], [...received], [...tags], [...givers]]);
    if (drawn === this.drawn && this.root.childElementCount === cards.length) return;
    this.drawn = drawn;
    const focused = document.activeElement?.dataset?.key;
    // A card's face depends on the card alone: the faces drawn already go into the new buttons.
    const faces = new Map([...this.buttons].map(([key, button]) => [key, button.querySelector(".card-face")]));
    this.order = sortCards(cards);
    this.buttons = new Map();
    this.root.dataset.mode = mode;
    // Two decks: both copies of a face may be in hand. Each copy is its own button, keyed
    // "QS" and "QS#2", marked 1 and 2 so the person sees which is which.
    const copies = {};
    for (const card of this.order) copies[card] = (copies[card] || 0) + 1;
    const seen = {};
    // As many copies marked as passed in: a twin held before the pass stays unmarked.
    const unmarked = {};
    for (const card of received) unmarked[card] = (unmarked[card] || 0) + 1;
    const buttons = this.order.map((card, index) => {
      const copy = (seen[card] = (seen[card] || 0) + 1);
      const key = copy > 1 ? `${card}#${copy}` : card;
      const twin = copies[card] > 1;
      const isReceived = unmarked[card] > 0;
      if (isReceived) unmarked[card] -= 1;
      const attrs = {
        class: "card",
        type: "button",
        "data-card": card,
        "data-key": key,
        "aria-label": cardName(card) + (twin ? (copy > 1 ? ", second copy" : ", first copy") : "")
          + (isReceived ? `, passed to you${givers.has(key) ? ` by ${givers.get(key)}` : ""}` : ""),
        tabindex: index === 0 ? "0" : "-1",
      };
      if (twin) attrs["data-copy"] = String(copy);
      if (mode === "play") {
        const ok = legal.has(card);
        attrs["data-legal"] = ok ? "true" : "false";
        // Not aria-disabled: a dimmed card must stay tappable, to say why it cannot go.
        // Why not, before it is tapped: read with the card's name, shown on a pointer's hover.
        if (!ok) {
          const why = reasons[card];
          attrs["aria-label"] += why ? `, cannot be played now: ${why}` : ", cannot be played now";
          if (why) attrs.title = why;
        }
      }
      if (mode === "pass") attrs["aria-pressed"] = selected.has(key) ? "true" : "false";
      // A chosen card of a scatter says whom it goes to; a card a scatter brought, who gave it.
      const given = isReceived ? givers.get(key) : undefined;
      const tag = tags.get(key) || given;
      if (tags.get(key)) attrs["aria-label"] += `, goes to ${tag}`;
      const button = h("button", attrs, faces.get(key) || cardFace(card),
        twin ? h("span", { class: "copy-mark", "aria-hidden": "true" }, String(copy)) : null,
        tag ? h("span", { class: "pass-tag", "aria-hidden": "true" }, tag) : null);
      if (isReceived) button.classList.add("received");
      if (selected.has(key)) button.classList.add("selected");
      button.addEventListener("click", () => this.onCard(card, button, key));
      this.buttons.set(key, button);
      return button;
    });
    clear(this.root, buttons);
    this.layout();
    const again = focused && this.buttons.get(focused);
    if (again) this.focus(again);
  }

  button(card) {
    return this.buttons.get(card);
  }

  layout() {
    const buttons = [...this.buttons.values()];
    const n = buttons.length;
    const width = this.root.clientWidth;
    const style = getComputedStyle(this.root);
    const cardWidth = parseFloat(style.getPropertyValue("--card-w")) || 64;
    const cardHeight = cardWidth * 1.4;
    const lift = parseFloat(style.getPropertyValue("--lift")) || 14;
    if (!n || !width) {
      this.root.style.height = `${cardHeight + lift}px`;
      return;
    }
    const fitsRow = (k) => k <= 1 || (width - cardWidth) / (k - 1) >= MIN_STEP;
    // Between suits while the tricks are played; halves while passing, where a scatter's
    // name tags need the room (a longer row cut "Marisol" short at eight players).
    const half = Math.ceil(n / 2);
    // (By mode, not turn: the rows do not move between the person's turn and the others'.)
    const cut = fitsRow(n) ? n : this.root.dataset.mode === "pass" ? half : rowBreak(buttons, fitsRow);
    const rows = cut === n ? [buttons] : [buttons.slice(0, cut), buttons.slice(cut)];
    // Rows overlap at most by `--row-overlap` (a short screen's): every card keeps its
    // middle visible, where a tap lands, and its corner.
    const overlap = parseFloat(style.getPropertyValue("--row-overlap")) || 0;
    const rowGap = cardHeight + 6 - overlap;
    let shown = cardWidth; // how much of a card the next one leaves in sight
    rows.forEach((row, r) => {
      const k = row.length;
      const step = k > 1 ? Math.min(cardWidth + 6, (width - cardWidth) / (k - 1)) : 0;
      if (k > 1) shown = Math.min(shown, step);
      const total = cardWidth + step * (k - 1);
      const left = (width - total) / 2;
      row.forEach((button, i) => {
        button.style.left = `${left + i * step}px`;
        button.style.top = `${lift + r * rowGap}px`;
        button.style.zIndex = String(r * 20 + i + 1);
      });
    });
    this.root.style.height = `${lift + cardHeight + (rows.length - 1) * rowGap + 4}px`;
    this.root.style.setProperty("--shown", `${shown}px`);
    // Too little of a card in sight for a name across it: a scatter's tags run up its edge.
    this.root.dataset.narrow = shown < NARROW ? "true" : "false";
  }

  focus(button) {
    for (const other of this.buttons.values()) other.tabIndex = -1;
    button.tabIndex = 0;
    button.focus({ preventScroll: true });
  }

  keydown(event) {
    // On the hand itself (its button gone after a pass): an arrow key goes into the cards.
    if (event.target === this.root && this.buttons.size
      && ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Home", "End"].includes(event.key)) {
      event.preventDefault();
      this.focus([...this.buttons.values()][event.key === "End" ? this.buttons.size - 1 : 0]);
      return;
    }
    const key = event.target?.dataset?.key;
    if (!key) return;
    const keys = [...this.buttons.keys()];
    const index = keys.indexOf(key);
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = index + 1;
    if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = index - 1;
    if (event.key === "Home") next = 0;
    if (event.key === "End") next = keys.length - 1;
    if (next === null) return;
    event.preventDefault();
    next = (next + keys.length) % keys.length;
    this.focus(this.buttons.get(keys[next]));
  }

  /** Keep the keyboard in the hand when the button it was on goes away. */
  focusRegion() {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected || active.dataset.action) {
      this.root.focus({ preventScroll: true });
    }
  }

  focusFirst(filter = () => true) {
    const card = this.order.find(filter) || this.order[0];
    if (card) this.focus(this.buttons.get(card));
  }
}
