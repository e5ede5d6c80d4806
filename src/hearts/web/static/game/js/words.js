// Sentences the game shows, built from the state. Seats come from the state: the person's
// own seat is `view.seat`, the table size `view.players`; "left" is the next seat clockwise.

/** The person's seat and the number of seats, as the server sent them. */
export function seating(state) {
  return { me: state.view.seat, count: state.view.players };
}

/** How far round the table `seat` sits from the person: 0 is the person, 1 the left. */
export function offsetOf(state, seat) {
  const { me, count } = seating(state);
  return (seat - me + count) % count;
}

export function isMe(state, seat) {
  return seat === state.view.seat;
}

/** Every seat number, clockwise from the first. */
export function allSeats(state) {
  return state.players.map((player) => player.seat);
}

/** Where a seat sits as the person sees it: bottom (the person), left, top or right. */
export function compass(state, seat) {
  const { count } = seating(state);
  const offset = offsetOf(state, seat);
  if (offset === 0) return "bottom";
  const turn = (offset * 2) / count; // in half turns: 1 is straight across
  if (turn === 1) return "top";
  return turn < 1 ? "left" : "right";
}

/** Where a seat sits for the person, `offset` places clockwise at a table of `players`:
 * "On your left", "Across", "2nd on your right". */
export function sideWord(offset, players) {
  const turn = (offset * 2) / players; // in half turns: 1 is straight across
  if (turn === 1) return "Across";
  if (turn < 1) return offset === 1 ? "On your left" : `${ordinal(offset)} on your left`;
  const back = players - offset;
  return back === 1 ? "On your right" : `${ordinal(back)} on your right`;
}

function ordinal(n) {
  return `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n] || "th"}`;
}

/** Where a seat sits, in the middle of a sentence: "on your left", "2nd on your right",
 * "across from you"; "" for the person. */
export function where(state, seat) {
  const offset = offsetOf(state, seat);
  if (offset === 0) return "";
  const word = sideWord(offset, seating(state).count);
  return word === "Across" ? "across from you" : word.replace("On your", "on your");
}

/** The seat whose cards come to the person this round, or undefined when none does. */
export function passedFrom(state) {
  const { me, count } = seating(state);
  const direction = state.view.pass_direction;
  if (direction === "left") return (me - 1 + count) % count;
  if (direction === "right") return (me + 1) % count;
  if (direction === "across" || direction === "partner") return (me + count / 2) % count;
  return undefined;
}

/** A person's name set apart from the words round it, between U+2068 FIRST STRONG ISOLATE
 * and U+2069 POP DIRECTIONAL ISOLATE: a right-to-left name ("سارة") then keeps the numbers
 * and commas beside it on their own side ("3. سارة 11", not "3. 11 سارة"). Every name put
 * into a sentence or beside a score goes through it; the marks themselves are invisible. */
export function named(name) {
  return `\u2068${name}\u2069`;
}

/** The name at `seat`, set apart from the words round it (see `named`). */
export function nameOf(state, seat) {
  return named(state.players[seat].name);
}

/** "You" for the person, the name for anyone else. */
export function whoIs(state, seat) {
  return isMe(state, seat) ? "You" : nameOf(state, seat);
}

const GRAPHEMES = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** A person's initial for their seat: the first letter or digit of the name ('"><b>Bo'
 * drew a quote mark), else its first character. */
export function initial(name) {
  // By what a reader sees as one character: a family emoji is seven code points, an accent
  // may follow its letter, and the first code point alone drew a part of them.
  const shown = [...GRAPHEMES.segment((name || "").trim())].map((part) => part.segment);
  const first = shown.find((ch) => /[\p{L}\p{N}]/u.test(ch)) || shown[0] || "?";
  return first.toUpperCase();
}

/** ["Ann"] -> "Ann"; ["Ann", "Bob", "Cy"] -> "Ann, Bob and Cy" */
export function listed(words) {
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words.join("");
}

/** A score as a score sheet writes it, with a real minus sign: "−10", never "-10" (as the
 * scorekeeper writes its sheet). */
export function score(n) {
  return n < 0 ? `−${Math.abs(n)}` : String(n);
}

/** A round's change to a score, with its sign: "+13", "0", "−26". */
export function signed(n) {
  return n > 0 ? `+${n}` : score(n);
}

/** A game's house rules in short words, by their names: "Partners, Bonus card", more than
 * two as a count ("3 house rules"), none as "". */
export function houseRulesShort(names = []) {
  return names.length > 2 ? `${names.length} house rules` : names.join(", ");
}

/** The label under the count of queens of spades taken: "1 queens of spades taken" was
 * said on the statistics page. */
export function queensTakenLabel(n) {
  return n === 1 ? "queen of spades taken" : "queens of spades taken";
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** "Pass 3 to Marisol, on your left", in parts: the receiver's name goes through `name`
 * (the Pass button cuts a long one short). */
export function passLabel(state, name = (text) => text) {
  const view = state.view;
  const n = view.cards_to_pass;
  if (view.pass_direction === "scatter") return [`Pass ${n}`, ": one to each player"];
  const to = view.pass_to[0];
  // A partner is named as one: "across from you" left the person to work it out.
  const side = to === view.partner ? "your partner" : where(state, to);
  return [`Pass ${n}`, " to ", name(nameOf(state, to)), `, ${side}`];
}

export function directionPhrase(direction) {
  return {
    left: "Pass left",
    right: "Pass right",
    across: "Pass across",
    hold: "A keep round: nobody passes",
    scatter: "Pass one card to each player",
    partner: "Pass to your partner",
  }[direction] || direction;
}

/** Whether a table of these rules never passes (every round a keep round: the big tables'
 * own rule, or a house rule). */
export function neverPasses(rules) {
  const cycle = rules?.pass_cycle || [];
  return cycle.length > 0 && cycle.every((direction) => direction === "hold");
}

/** Said on the start screen and at the table of a table that never passes. */
export const NO_PASSING = "No passing at this table: everyone plays the cards dealt.";

/** The same, short enough for the top bar of a phone. */
export function directionShort(direction) {
  return {
    left: "Pass left",
    right: "Pass right",
    across: "Pass across",
    hold: "Keep round",
    scatter: "Pass 1 each",
    partner: "To partner",
  }[direction] || direction;
}

export function roundTitle(handNumber) {
  return `Round ${handNumber + 1}`;
}

/** "the queen of spades", or "both queens of spades" where two decks hold two. */
export function queenWords(state) {
  return state.view.decks > 1 ? "both queens of spades" : "the queen of spades";
}

/** One of a character's lines of a kind, taken in turn round by round (and seat by seat, so
 * that two characters' lines differ): the same line every clean round read as a loop. */
export function quipLine(lines, round, seat = 0) {
  const all = Array.isArray(lines) ? lines : [lines];
  return all.length ? all[(round + seat) % all.length] : "";
}

/** When a game was last played, as a list of games says it: "today at 14:05", "yesterday
 * at 09:30", "on 28 Nov 2026 at 17:12" (the date and time in the browser's own language). */
export function playedWhen(iso, now = new Date()) {
  const then = new Date(iso);
  const time = then.toLocaleTimeString(undefined, { timeStyle: "short" });
  const day = (date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const daysAgo = Math.round((day(now) - day(then)) / 86400000);
  if (daysAgo === 0) return `today at ${time}`;
  if (daysAgo === 1) return `yesterday at ${time}`;
  return `on ${then.toLocaleDateString(undefined, { dateStyle: "medium" })} at ${time}`;
}

/** The seats that took `card` in these tricks (each copy's taker, with two decks): a trick
 * held over is taken with the next one, which lists its cards as carried. */
export function takersOf(tricks, card) {
  const takers = new Set();
  for (const trick of tricks) {
    if (trick.held_over) continue;
    if ([...trick.plays.map(([, played]) => played), ...(trick.carried || [])].includes(card)) {
      takers.add(trick.winner);
    }
  }
  return [...takers];
}
