// The Hint button: asks the server what the hard player would do in the person's place
// (POST /api/games/{id}/hint), marks those cards in the hand and shows the reason under the
// person's name (beside the trick, under the table's message, on a phone held sideways). A hint
// belongs to one decision: a card's move, or a round's pass (the others at a table of
// friends pass meanwhile, and the pass to choose stays the same); it goes once the game
// moves past it. A table of friends made without hints (`table.hints` false) has no button
// at all.

import { api, Refused } from "./api.js";
import { h, clear, SIDEWAYS } from "./dom.js";
import { cardName, spoken } from "./cards.js";

const button = h("button", { type: "button", class: "quiet", "data-action": "hint", hidden: true }, "Hint");
const line = h("p", { class: "coach-hint", "data-region": "hint", "aria-live": "polite", hidden: true,
  tabindex: "0", title: "Tap to put the hint away (or press Enter)" });
let shown = null; // {decision, cards} of the hint on screen
let latest = null; // {state, canAct} from the last render
let asking = false;
let moves = 0; // the person's moves made on this page: a hint asked before the last is stale

/** Put the button beside the table's tools and the line under the person's name.
 * `later(ask)`: true if the table is busy showing the others' cards and keeps `ask` for when
 * they stop (pressed then, the hint's answer was for a move no longer shown, and dropped). */
export function mountHint(later = () => false) {
  document.querySelector(".table-tools")?.prepend(button);
  // Held sideways on a phone the words go beside the trick, under the table's message: in
  // the top bar they had 44 px, two lines and a half, the rest cut through (game.css).
  const place = () => {
    const home = document.querySelector(SIDEWAYS.matches ? "#game .signs" : ".me-line");
    if (!home || line.parentElement === home) return;
    const message = home.querySelector(":scope > [data-region=message]");
    if (message) message.after(line);
    else home.append(line);
    fit();
  };
  place();
  SIDEWAYS.addEventListener("change", place);
  // The room the box has changes with the screen, the text size and the table under it.
  const table = document.querySelector("#game");
  if (table) new ResizeObserver(refit).observe(table);
  addEventListener("resize", refit);
  button.addEventListener("click", () => {
    if (!later(ask)) ask();
  });
  // The cards stay marked; the words can be put away (on a short screen they cover the felt).
  line.addEventListener("click", () => { line.hidden = true; });
  // And by keyboard: the line takes the focus, and Enter, Space or Escape put it away.
  line.addEventListener("keydown", (event) => {
    if (!["Enter", " ", "Escape"].includes(event.key)) return;
    event.preventDefault();
    line.hidden = true;
    document.querySelector("[data-region=hand]")?.focus({ preventScroll: true });
  });
}

/** After each render: the button while the person has a pass or a card to choose, and the
 * hint's marks again (the hand is redrawn), or no hint once the game has moved on. */
export function renderHint(state, canAct) {
  const allowed = state.table?.hints !== false;
  latest = { state, canAct: canAct && allowed };
  button.hidden = !canAct || !allowed;
  if (shown && (shown.decision !== decision(state) || !canAct)) {
    shown = null;
    line.hidden = true;
    line.textContent = "";
    button.removeAttribute("aria-label"); // "Hint" again, not the last hint's cards
  }
  mark(shown ? shown.cards : []);
  refit();
}

let refitting = false;

/** `fit` once before the next frame, however many times the table is redrawn or resized
 * meanwhile (each `fit` lays the page out twice). */
function refit() {
  if (refitting || line.hidden) return;
  refitting = true;
  requestAnimationFrame(() => {
    refitting = false;
    fit();
  });
}

/** The box shows as many lines as game.css allows it, and fewer where even those would make
 * the page taller than the screen (held sideways, beside the trick, on a screen 390 px tall,
 * where the table grows with what it holds); the rest scrolls within it, shaded at its foot.
 * Two lines at the least. */
function fit() {
  if (line.hidden) return;
  const scrolled = line.scrollTop; // kept: the person may be reading further down
  line.style.maxHeight = "";
  // Floating over the felt (upright), the box makes the page no taller.
  if (getComputedStyle(line).position === "static") {
    // What the page is without the box (with large text on the shortest phones it is taller
    // than the screen already): the box gives up only the room it added past the screen.
    const page = document.documentElement;
    line.hidden = true;
    const without = page.scrollHeight;
    line.hidden = false;
    const over = page.scrollHeight - Math.max(innerHeight, without);
    if (over > 0) {
      const style = getComputedStyle(line);
      const least = 2 * parseFloat(style.lineHeight) + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
      line.style.maxHeight = `${Math.max(least, line.getBoundingClientRect().height - over)}px`;
    }
  }
  line.scrollTop = scrolled;
}

/** The decision a hint is for: a card's move, or the round's pass. At a table of friends
 * everyone passes at once, and each pass moves the count on: the server's hint for a pass
 * is the same whoever passed before (seeded by the round), and a hint that came, or was on
 * the screen, as another person passed was dropped unsaid. */
function decision(state) {
  return state.phase === "passing" ? `${state.id}:pass:${state.view.hand_number}` : `${state.id}:${state.move}`;
}

/** Whether the person has a pass or a card to choose, and may have a hint for it. */
export function canAskHint() {
  return Boolean(latest?.canAct);
}

/** The person has made their move: the words go at once (not after the pause that shows the
 * cards passed to them, or the trick); the marks go with the next render. */
export function putHintAway() {
  moves += 1;
  line.hidden = true;
}

async function ask() {
  if (!latest?.canAct || asking) return;
  const { state } = latest;
  const asked = moves;
  asking = true;
  button.setAttribute("aria-busy", "true");
  try {
    const advice = await api.hint(state.id);
    // Moved on: the game, or the person, whose card may still be flying to the trick (the
    // state drawn is not the one after it yet, and an answer then read as the next move's).
    // A pass is the round's: the others' passes meanwhile leave it the person's to choose.
    const now = latest.state;
    const same = state.phase === "passing" ? decision(now) === decision(state)
      : now.id === state.id && now.move === advice.move;
    if (moves !== asked || !same || !latest.canAct) return;
    shown = { decision: decision(now), cards: advice.cards };
    clear(line, spoken(advice.reason)); // its cards said in words, not symbols
    line.hidden = false;
    line.scrollTop = 0;
    fit();
    button.setAttribute("aria-label", `Hint: ${advice.cards.map(cardName).join(", ")}`);
    mark(advice.cards);
  } catch (error) {
    if (moves !== asked) return;
    line.textContent = error instanceof Refused ? error.message : "No hint could be had just now.";
    line.hidden = false;
    fit();
  } finally {
    asking = false;
    button.removeAttribute("aria-busy");
  }
}

/** Said last in a hinted card's name: the mark is a glow, which a screen reader never told. */
const HINTED = ", hinted by the coach";

function mark(cards) {
  const wanted = [...cards];
  for (const el of document.querySelectorAll("#hand [data-card]")) {
    const at = wanted.indexOf(el.dataset.card);
    const label = (el.getAttribute("aria-label") || "").replace(HINTED, "");
    if (at >= 0) {
      wanted.splice(at, 1); // with two decks, one copy per card hinted
      el.dataset.hinted = "true";
      el.setAttribute("aria-label", label + HINTED);
    } else {
      delete el.dataset.hinted;
      if (el.hasAttribute("aria-label")) el.setAttribute("aria-label", label);
    }
  }
}
