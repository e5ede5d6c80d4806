// Cards drawn as SVG by our own code: corner indices, suit pips, simple court faces and a
// patterned back. Every suit has its own shape, so colour is never the only difference.

import { h, s } from "./dom.js";

export const SUITS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
const RANK_LABELS = { T: "10" };
const RANK_ORDER = "23456789TJQKA";
// Hands are shown clubs, diamonds, spades, hearts: black and red alternate.
const SUIT_ORDER = "CDSH";

// Suit shapes in a 100 x 100 box.
const SUIT_PATHS = {
  H: "M50 92C32 76 4 58 6 32C8 12 32 4 50 26C68 4 92 12 94 32C96 58 68 76 50 92Z",
  D: "M50 4L90 50L50 96L10 50Z",
  S: "M50 6C68 30 96 46 92 68C89 84 68 88 55 74L62 94H38L45 74C32 88 11 84 8 68C4 46 32 30 50 6Z",
  C: "M50 6A20 20 0 0 1 64 41A20 20 0 1 1 58 76L63 94H37L42 76A20 20 0 1 1 36 41A20 20 0 0 1 50 6Z",
};

export const cardRank = (card) => card[0];
export const cardSuit = (card) => card[1];
export const isRed = (card) => card[1] === "H" || card[1] === "D";

const SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** "TS" -> "10♠" */
export const cardSymbol = (card) => `${card[0] === "T" ? "10" : card[0]}${SYMBOLS[card[1]]}`;

/** "QS" -> "queen of spades" */
export function cardName(card) {
  return `${RANK_NAMES[card[0]]} of ${SUITS[card[1]]}`;
}

const SYMBOL_SUITS = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" };

/**
 * Words with cards in symbols ("Throw the A♠.") as nodes that are read as they are seen: each
 * card shown as written and said by its name ("ace of spades"), a suit on its own by its
 * name. Screen readers said "A black spade suit", or nothing at all, for "A♠".
 */
export function spoken(text) {
  const words = String(text);
  const nodes = [];
  let at = 0;
  for (const match of words.matchAll(/(10|[2-9JQKA])?([♣♦♥♠])/gu)) {
    if (match.index > at) nodes.push(words.slice(at, match.index));
    const suit = SYMBOL_SUITS[match[2]];
    const rank = match[1] === "10" ? "T" : match[1];
    nodes.push(h("span", { "aria-hidden": "true" }, match[0]),
      h("span", { class: "sr" }, rank ? cardName(rank + suit) : SUITS[suit]));
    at = match.index + match[0].length;
  }
  if (at < words.length) nodes.push(words.slice(at));
  return nodes;
}

/** Cards in the order a hand is shown, low to high within each suit. */
export function sortCards(cards) {
  const key = (c) => SUIT_ORDER.indexOf(c[1]) * 13 + RANK_ORDER.indexOf(c[0]);
  return [...cards].sort((a, b) => key(a) - key(b));
}

// Every pip stands upright: at phone size an upside-down spade reads as a black heart and
// an upside-down heart as a red spade.
function pip(suit, x, y, size) {
  const scale = size / 100;
  const transform = `translate(${x - size / 2} ${y - size / 2}) scale(${scale})`;
  return s("path", { d: SUIT_PATHS[suit], transform, class: "pip" });
}

/** A suit symbol on its own (for labels such as "hearts broken"). */
export function suitIcon(suit, label = null) {
  const attrs = { viewBox: "0 0 100 100", class: `suit-icon suit-${suit}` };
  if (label) {
    attrs.role = "img";
    attrs["aria-label"] = label;
  } else {
    attrs["aria-hidden"] = "true";
  }
  return s("svg", attrs, s("path", { d: SUIT_PATHS[suit] }));
}

// Pip positions for number cards on a 60 x 84 card (x, y).
const COLUMNS = { left: 19, mid: 30, right: 41 };
const LAYOUTS = {
  2: [["mid", 22], ["mid", 62]],
  3: [["mid", 22], ["mid", 42], ["mid", 62]],
  4: [["left", 22], ["right", 22], ["left", 62], ["right", 62]],
  5: [["left", 22], ["right", 22], ["mid", 42], ["left", 62], ["right", 62]],
  6: [["left", 22], ["right", 22], ["left", 42], ["right", 42], ["left", 62], ["right", 62]],
  7: [["left", 22], ["right", 22], ["mid", 32], ["left", 42], ["right", 42], ["left", 62],
    ["right", 62]],
  8: [["left", 22], ["right", 22], ["mid", 32], ["left", 42], ["right", 42], ["mid", 52],
    ["left", 62], ["right", 62]],
  9: [["left", 20], ["right", 20], ["left", 35], ["right", 35], ["mid", 42], ["left", 49],
    ["right", 49], ["left", 64], ["right", 64]],
  T: [["left", 20], ["right", 20], ["mid", 28], ["left", 35], ["right", 35], ["left", 49],
    ["right", 49], ["mid", 56], ["left", 64], ["right", 64]],
};

function centre(rank, suit) {
  if (rank === "A") {
    return [pip(suit, 30, 42, suit === "S" ? 30 : 24)];
  }
  if ("JQK".includes(rank)) {
    // A framed court panel: a crown for kings and queens (different points), a plume for
    // jacks, the rank letter large, the suit small above and below.
    const frame = s("rect", { x: 13, y: 15, width: 34, height: 54, rx: 3, class: "court" });
    const crown = rank === "J"
      ? s("path", { d: "M22 37c4-9 12-12 16-6c-5-1-8 2-9 6z", class: "court-mark" })
      : s("path", {
        d: rank === "K" ? "M20 38l3-9 4 5 3-7 3 7 4-5 3 9z" : "M21 38l2-7 4 4 3-6 3 6 4-4 2 7z",
        class: "court-mark",
      });
    const letter = s("text", { x: 30, y: 57, class: "court-letter", "text-anchor": "middle" },
      rank);
    return [frame, crown, letter, pip(suit, 30, 63.5, 7), pip(suit, 30, 21, 7)];
  }
  return LAYOUTS[rank].map(([col, y]) => pip(suit, COLUMNS[col], y, 11));
}

/** The face of a card as an SVG element (decorative: the button around it carries the name). */
export function cardFace(card) {
  const rank = cardRank(card);
  const suit = cardSuit(card);
  const label = RANK_LABELS[rank] || rank;
  // The index in the top-left corner and again, upright, in the bottom-right one.
  const corner = (x, y) => s("g", { class: "corner" },
    s("text", {
      x, y, class: "index", "text-anchor": "middle",
      // "10" is squeezed to the width of one figure so it stays inside the corner.
      textLength: label.length > 1 ? 10 : null, lengthAdjust: label.length > 1 ? "spacingAndGlyphs" : null,
    }, label),
    pip(suit, x, y + 6, 7));
  return s("svg", {
    viewBox: "0 0 60 84",
    class: `card-face suit-${suit}${isRed(card) ? " red" : ""}`,
    "aria-hidden": "true",
    focusable: "false",
  },
  s("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 4.5, class: "card-bg" }),
  corner(6.5, 12.5), corner(53.5, 71.5), ...centre(rank, suit));
}

/** A card back. */
export function cardBack() {
  return s("svg", { viewBox: "0 0 60 84", class: "card-back", "aria-hidden": "true" },
    s("rect", { x: 0.5, y: 0.5, width: 59, height: 83, rx: 4.5, class: "back-edge" }),
    s("rect", { x: 4, y: 4, width: 52, height: 76, rx: 3, class: "back-field" }),
    s("path", { d: "M30 22l14 20-14 20-14-20z", class: "back-mark" }),
    s("path", { d: SUIT_PATHS.H, transform: "translate(24 36) scale(.12)", class: "back-heart" }));
}
