// The person's hand: card buttons laid out to fit the screen (two rows on a phone, so every
// card keeps a 44 px target; on a tablet held upright, bigger cards in two rows where one
// would show too little of each), selection for the pass, legal and dimmed cards for play, and
// arrow-key movement between cards.

import { h } from "./dom.js";
import { cardFace, cardName, sortCards } from "./cards.js";

const MIN_STEP = 44;
/** Less of a card than this in sight (px), and a scatter's name tag runs up its edge. */
const NARROW = 48;

/**
 * Where a hand too wide for one row breaks into two: at the change of suit nearest the middle
 * whose rows differ little, else at the middle. The longer row may hold a card more than
 * halves' where its cards still keep `least` of each in sight (fitsRow); where halves cannot,
 * no row is longer than a half (its cards would lie closer than halves'). Halves split a suit
 * across the rows (six players, two decks: a 4♠ ended the first row and its twin began the
 * second); a row free to hold as many as fit could run 10 and 3 on a tablet held upright.
 */
export function rowBreak(buttons, fitsRow) {
  const n = buttons.length;
  const half = Math.ceil(n / 2);
  const longest = fitsRow(half + 1) ? half + 1 : half;
  let best = null;
  for (let k = 1; k < n; k += 1) {
    if (buttons[k].dataset.card[1] === buttons[k - 1].dataset.card[1]) continue;
    if (k > longest || n - k > longest) continue;
    // Nearest the middle; of two as near, the one with the longer first row, as halves have.
    const off = Math.abs(k - n / 2);
    if (best === null || off <= Math.abs(best - n / 2)) best = k;
  }
  return best ?? half;
}

/** Give `el` exactly these attributes (its inline style aside). */
function sameAttributes(el, attrs) {
  for (const name of el.getAttributeNames()) {
    if (name !== "style" && !(name in attrs)) el.removeAttribute(name);
  }
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
}

/** The small marks after a card's face, [class, text] each: a copy's number, a pass's name. */
function sameMarks(button, marks) {
  const now = [...button.children].slice(1);
  const same = now.length === marks.length
    && now.every((el, i) => el.className === marks[i][0] && el.textContent === marks[i][1]);
  if (same) return;
  for (const el of now) el.remove();
  button.append(...marks.map(([name, text]) => h("span", { class: name, "aria-hidden": "true" }, text)));
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
   *
   * Each card still held keeps its button, brought up to date; only a card that came in gets
   * a new one. A move built every button again (the faces, the names, a style and a layout
   * for each): on a slow phone most of a tap's time before its card was on the table.
   */
  render({ cards, mode, legal = new Set(), reasons = {}, selected = new Set(), received = [], tags = new Map(), givers = new Map() }) {
    // The same hand drawn again (a table with people redraws on every message) is left as
    // it is: laying it out again costs a layout each time.
    const drawn = JSON.stringify([cards, mode, [...legal], reasons, [...selected], [...received], [...tags], [...givers]]);
    if (drawn === this.drawn && this.root.childElementCount === cards.length) return;
    this.drawn = drawn;
    // Read before anything changes: on a page as its last frame left it, a read costs no
    // layout of its own (a read after the changes laid the whole hand out once more).
    const room = this.measure();
    const old = this.buttons;
    this.order = sortCards(cards);
    this.buttons = new Map();
    // Two decks: both copies of a face may be in hand. Each copy is its own button, keyed
    // "QS" and "QS#2", marked 1 and 2 so the person sees which is which.
    const copies = {};
    for (const card of this.order) copies[card] = (copies[card] || 0) + 1;
    const seen = {};
    // As many copies marked as passed in: a twin held before the pass stays unmarked.
    const unmarked = {};
    for (const card of received) unmarked[card] = (unmarked[card] || 0) + 1;
    const wanted = this.order.map((card) => {
      const copy = (seen[card] = (seen[card] || 0) + 1);
      const key = copy > 1 ? `${card}#${copy}` : card;
      const isReceived = unmarked[card] > 0;
      if (isReceived) unmarked[card] -= 1;
      return { card, copy, key, isReceived };
    });
    const keys = new Set(wanted.map(({ key }) => key));
    // The card with the focus is leaving (played, passed): the focus goes to the hand first,
    // before anything changes. A focused button taken out had the browser work out the
    // page's style and layout there and then, in the middle of the changes.
    const active = document.activeElement;
    const focused = [...old].find(([, button]) => button === active)?.[0];
    if (focused && !keys.has(focused)) this.root.focus({ preventScroll: true });
    for (const [key, button] of old) if (!keys.has(key)) button.remove();
    // The changes below take their place at once, as a hand built anew did: a card raised,
    // lowered or moved along by this drawing does not slide there (see `still`).
    this.still();
    this.root.dataset.mode = mode;
    const tabStop = focused && keys.has(focused) ? focused : wanted[0]?.key;
    let next = this.root.firstElementChild;
    for (const { card, copy, key, isReceived } of wanted) {
      const twin = copies[card] > 1;
      const attrs = {
        class: `card${isReceived ? " received" : ""}${selected.has(key) ? " selected" : ""}`,
        type: "button",
        "data-card": card,
        "data-key": key,
        "aria-label": cardName(card) + (twin ? (copy > 1 ? ", second copy" : ", first copy") : "")
          + (isReceived ? `, passed to you${givers.has(key) ? ` by ${givers.get(key)}` : ""}` : ""),
        tabindex: key === tabStop ? "0" : "-1",
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
      const button = old.get(key) || this.make(card, key);
      // Every attribute as a new button would have it, and no other (a hint's mark, a
      // shake): a drawing leaves the hand as if built anew.
      sameAttributes(button, attrs);
      sameMarks(button, [
        twin ? ["copy-mark", String(copy)] : null,
        tag ? ["pass-tag", tag] : null,
      ].filter(Boolean));
      this.buttons.set(key, button);
      // Only a card that came in is put in; the others stay where they are in the page.
      if (button === next) next = next.nextElementSibling;
      else this.root.insertBefore(button, next);
    }
    this.layout(room);
    const again = focused && this.buttons.get(focused);
    if (again && again !== document.activeElement) this.focus(again);
  }

  button(card) {
    return this.buttons.get(card);
  }

  /** A new button for a card that came into the hand (`render` gives it its attributes). */
  make(card, key) {
    const button = h("button", {}, cardFace(card));
    button.addEventListener("click", () => this.onCard(card, button, key));
    return button;
  }

  /**
   * Let this drawing's changes take their place without a transition: the cards' slide
   * (top, left, a raised card's transform) is for a card moved while it is shown, as when the
   * screen turns, not for a hand drawn for the next move. The transitions come back once a
   * frame has been drawn with the changes (two frames on: the first runs before its own
   * style is worked out).
   */
  still() {
    const token = {};
    this.stillToken = token;
    this.root.dataset.still = "true";
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (this.stillToken === token) delete this.root.dataset.still;
    }));
  }

  /**
   * What the layout depends on outside the hand: its width and the page's card sizes.
   * `extra` is how much higher than `lift` a card rises under a hovering pointer: the cards
   * start that much lower, so none rises out of the hand.
   */
  measure() {
    const style = getComputedStyle(this.root);
    return {
      width: this.root.clientWidth,
      cardWidth: parseFloat(style.getPropertyValue("--card-w")) || 64,
      lift: parseFloat(style.getPropertyValue("--lift")) || 14,
      extra: matchMedia("(hover: hover)").matches ? parseFloat(style.getPropertyValue("--hover-extra")) || 0 : 0,
      overlap: parseFloat(style.getPropertyValue("--row-overlap")) || 0,
      least: parseFloat(style.getPropertyValue("--least-shown")) || MIN_STEP,
    };
  }

  layout({ width, cardWidth, lift, extra, overlap, least } = this.measure()) {
    const buttons = [...this.buttons.values()];
    const n = buttons.length;
    const cardHeight = cardWidth * 1.4;
    if (!n || !width) {
      this.root.style.height = `${cardHeight + lift}px`;
      return;
    }
    // A row too long to leave `least` of each card in sight (44 px, a tap's target; more on a
    // tablet held upright, which has the height for two rows of big cards) breaks in two.
    const fitsRow = (k) => k <= 1 || (width - cardWidth) / (k - 1) >= least;
    // Between suits, in every mode: the rows do not move between the pass and the tricks,
    // nor between the person's turn and the others'.
    const cut = fitsRow(n) ? n : rowBreak(buttons, fitsRow);
    const rows = cut === n ? [buttons] : [buttons.slice(0, cut), buttons.slice(cut)];
    // Rows overlap at most by `--row-overlap` (a short screen's): every card keeps its
    // middle visible, where a tap lands, and its corner. Rows that do not overlap lie as far
    // apart again as a card of the second rises (chosen, playable, under a pointer): risen,
    // it stays clear of the first row's foot, whose index it covered (12 px of it on a tablet
    // held upright). Where they overlap, that foot is under the next row already, and the
    // screen has no height to spare (the shortest phones held sideways scrolled).
    const rowGap = cardHeight + 6 - overlap + (overlap > 0 ? 0 : lift + extra);
    let shown = cardWidth; // how much of a card the next one leaves in sight
    rows.forEach((row, r) => {
      const k = row.length;
      const step = k > 1 ? Math.min(cardWidth + 6, (width - cardWidth) / (k - 1)) : 0;
      if (k > 1) shown = Math.min(shown, step);
      const total = cardWidth + step * (k - 1);
      const left = (width - total) / 2;
      row.forEach((button, i) => {
        button.style.left = `${left + i * step}px`;
        button.style.top = `${lift + extra + r * rowGap}px`;
        button.style.zIndex = String(r * 20 + i + 1);
        // A row with another over its foot: a scatter's name tag goes above that (game.css).
        button.dataset.under = String(r < rows.length - 1 && rowGap < cardHeight);
      });
    });
    // As tall with a hovering pointer as without: its room above comes out of the 4 px below.
    this.root.style.height = `${lift + Math.max(extra, 4) + cardHeight + (rows.length - 1) * rowGap}px`;
    this.root.style.setProperty("--shown", `${shown}px`);
    // How much of a card in the first of two rows the second covers.
    this.root.style.setProperty("--covered", `${Math.max(0, cardHeight - rowGap)}px`);
    // Too little of a card in sight for a name across it: a scatter's tags run up its edge.
    this.root.dataset.narrow = shown < NARROW ? "true" : "false";
    // So they do where a name across would be cut short ("Marisol" in the seven cards of a
    // row at eight players on a phone, 53 px of each in sight). Read only with tags shown.
    const tags = shown < NARROW ? [] : this.root.querySelectorAll(".pass-tag");
    if ([...tags].some((tag) => tag.scrollWidth > tag.clientWidth + 1)) this.root.dataset.narrow = "true";
  }

  /** Bring the whole hand into sight, when the table is taller than the screen (large text on
   * a phone held sideways, eight players: the hand lay under the screen's foot); a hand in
   * sight is left where it is. */
  keepInSight() {
    const box = this.root.getBoundingClientRect();
    if (box.bottom > innerHeight || box.top < 0) this.root.scrollIntoView({ block: "nearest" });
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
