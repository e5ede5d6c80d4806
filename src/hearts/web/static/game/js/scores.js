// After a round: who took what, the moon, the totals, the score sheet and a chart of the
// totals. After the game: the winner and the standings.

import { h, s } from "./dom.js";
import { cardName, cardSymbol, spoken } from "./cards.js";
import { takenSummary } from "./taken.js";
import { allSeats, isMe, listed, named, queenWords, score, signed } from "./words.js";

// Line colours and marker shapes, in seat order from the person round the table.
const LINE_CLASSES = ["line-a", "line-b", "line-c", "line-d", "line-e", "line-f"];
// Equal totals would hide one line under another: each line sits a little apart and has its
// own dash pattern, so every line stays in sight.
const DASHES = ["", "6 3", "2 3", "8 3 2 3", "4 2", "1 2"];
const SPREAD = 2.2;
const BAND = 8;

/** The round just scored: the moon, then who took the hearts, the queen and the bonus card,
 * the points, the score and the total of each player. */
export function roundSummary(state) {
  const result = state.results[state.results.length - 1];
  const names = state.players.map((p) => named(p.name));
  const labels = rowLabels(state);
  const taken = takenSummary(state);
  const bonus = state.view.rules.bonus_card;
  const items = [];
  // The person first: "You and Marisol each took a queen", never "Marisol and You".
  const who = (seats) => listed([...seats].sort((a, b) => isMe(state, b) - isMe(state, a))
    .map((seat) => (isMe(state, seat) ? "You" : names[seat])));
  const shooters = result && result.shooter !== null ? moonTeam(state, result.shooter) : [];
  if (shooters.length) {
    const what = result.sun ? "shot the sun: every trick" : `shot the moon: every heart and ${queenWords(state)}`;
    const ours = shooters.some((seat) => isMe(state, seat));
    const others = allSeats(state).filter((seat) => !shooters.includes(seat));
    let how;
    if (result.moon_choice === "subtract" && shooters.length > 1) how = `${ours ? "Your team's" : "Their"} totals drop instead.`;
    else if (result.moon_choice === "subtract") how = `${ours ? "Your" : `${names[shooters[0]]}'s`} total drops instead.`;
    else if (shooters.length > 1) how = `${who(others)} take the points.`;
    else how = "Everyone else takes the points.";
    items.push(h("p", { class: "moon-news" }, moonIcon(), ` ${who(shooters)} ${what}! ${how}`));
  }
  // Two decks hold two queens of spades: one who took both is said so, two who took one each
  // in one line; not a shooter, whose news above says so.
  const queens = allSeats(state).filter((seat) => taken[seat].queen && !shooters.includes(seat));
  if (queens.length > 1) {
    items.push(h("p", { class: "queen-news" }, `${who(queens)} each took a queen of spades.`));
  } else if (queens.length) {
    const what = taken[queens[0]].queen > 1 ? "both queens of spades" : "the queen of spades";
    items.push(h("p", { class: "queen-news" }, `${who(queens)} took ${what}.`));
  }
  // The kitty's cards count for its taker (they are in the columns below): said, as the
  // table said it during the round.
  const view = state.view;
  if (view.kitty_taker !== null && view.kitty_taker !== undefined && view.kitty?.length) {
    const kitty = listed(view.kitty.map(cardName));
    items.push(h("p", { class: "kitty-news" }, `${who([view.kitty_taker])} took the kitty: ${kitty}.`));
  }
  // "Points" (taken) beside "Scored" only where they differ (a moon, partners): a column
  // the same as the next one only squeezes the names on a phone.
  const pointsShown = !result || result.points_taken.some((p, seat) => p !== result.scores[seat]);
  const rows = labels.map((label, seat) => h("tr", mineMark(isMe(state, seat)),
    h("th", { scope: "row" }, label),
    h("td", {}, taken[seat].hearts),
    h("td", {}, taken[seat].queen ? spoken(`Q♠${taken[seat].queen > 1 ? ` ×${taken[seat].queen}` : ""}`) : "–"),
    // The card, as the queen's column has it ("yes" said nothing of what the card was).
    bonus ? h("td", {}, taken[seat].bonus ? spoken(`${cardSymbol(bonus)}${taken[seat].bonuses > 1 ? " ×2" : ""}`) : "–") : null,
    pointsShown ? h("td", {}, result ? result.points_taken[seat] : 0) : null,
    h("td", {}, result ? signed(result.scores[seat]) : 0),
    h("td", {}, score(state.scores[seat]))));
  items.push(h("table", { class: "summary round-table" },
    h("caption", { class: "sr" }, "This round"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), column("Hearts", "♥"),
      column("Queen", "Q♠"),
      bonus ? column("Bonus", cardSymbol(bonus), cardName(bonus)) : null,
      pointsShown ? h("th", { scope: "col" }, "Points") : null,
      h("th", { scope: "col" }, "Scored"), h("th", { scope: "col" }, "Total"))),
    h("tbody", {}, rows)));
  if (view.partner !== null && view.partner !== undefined && !shooters.length) {
    items.push(h("p", { class: "hint team-note" },
      "Partners score together: each is scored the points their team took."));
  }
  if (result && result.reset.length) {
    items.push(h("p", {}, `${who(result.reset)} landed exactly on the target and dropped back.`));
  }
  return items;
}

/** A column's heading: its word, or on a phone its card's symbol ("♥" for "Hearts"), the
 * word kept for screen readers. The words squeezed the names column until "Marisol" broke
 * in two at large text. */
function column(word, symbol, title) {
  return h("th", { scope: "col", title: title || word },
    h("span", { class: "col-word" }, word),
    h("span", { class: "col-symbol", "aria-hidden": "true" }, symbol));
}

/** The seats that shot the moon: the shooter, and in Partnership Hearts the shooter's
 * partner too (the engine names the team by its first seat). */
function moonTeam(state, shooter) {
  return standingsEntries(state).find((seats) => seats.includes(shooter));
}


/** Each seat's name as the score tables show it. At a table of one the person is "You"
 * already; at a table of friends everyone chose a name, so the person's own reads
 * "Bea (you)", to find their line at a glance. */
export function rowLabels(state) {
  return state.players.map((player) => (isMe(state, player.seat) && state.table?.friends
    ? `${named(player.name)} (you)`
    : named(player.name)));
}

/** The attributes that pick out the person's own row (or column) in a table or list. */
function mineMark(mine, others = "") {
  return { class: [others, mine ? "mine" : ""].filter(Boolean).join(" ") || null, "data-you": mine ? "true" : null };
}

/** Every round so far, one row each, with running totals. */
export function scoreSheet(state) {
  const names = rowLabels(state);
  // A big table's sheet is wider than a phone: it scrolls in its own box, not the page.
  return h("div", { class: "sheet-scroll", role: "region", "aria-label": "Score sheet", tabindex: "0" }, sheetTable(state, names));
}

function sheetTable(state, names) {
  return h("table", { class: "sheet" },
    h("caption", {}, "Score sheet"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Round"),
      names.map((n, seat) => h("th", { scope: "col", ...mineMark(isMe(state, seat)) }, n)))),
    h("tbody", {}, state.results.map((r) => h("tr", {},
      h("th", { scope: "row" }, r.hand_number + 1, r.shooter !== null ? moonIcon("moon") : null),
      r.totals.map((total, seat) => h("td", {},
        h("span", { class: "total" }, score(total)),
        h("span", { class: "delta" }, ` (${signed(r.scores[seat])})`)))))));
}

/** A line chart of the totals after each round, with the target as a dashed line once
 * somebody is halfway there; before that the chart's top is the highest total (a little
 * over), so early rounds are not squeezed into a strip at its foot, and a note at the top
 * says how far off the target is; the target's line says what it is. */
export function totalsChart(state) {
  const target = state.view.rules.target_score;
  const seats = state.players.map((p) => p.seat);
  const series = seats.map((seat) => [0, ...state.results.map((r) => r.totals[seat])]);
  const rounds = series[0].length - 1;
  const highest = Math.max(0, ...series.flat());
  const targetShown = highest * 2 >= target;
  const high = targetShown ? Math.max(target, highest) : chartTop(highest);
  const low = Math.min(0, ...series.flat());
  const W = 320;
  const H = 180;
  const pad = { l: 30, r: 10, t: 10, b: 22 };
  const x = (i) => pad.l + (rounds ? (i / rounds) * (W - pad.l - pad.r) : 0);
  const y = (v) => pad.t + (1 - (v - low) / (high - low || 1)) * (H - pad.t - pad.b);
  const names = rowLabels(state);
  // Apart by SPREAD, within a band of BAND at most: ten lines 2.2 px apart drew a 0 ten
  // pixels under the zero line.
  const apart = Math.min(SPREAD, BAND / Math.max(1, seats.length - 1));
  const shift = (seat) => (seat - (seats.length - 1) / 2) * apart;
  const lines = series.map((values, seat) => s("g", { class: `series ${LINE_CLASSES[seat % LINE_CLASSES.length]}` },
    s("polyline", {
      points: values.map((v, i) => `${x(i)},${y(v) + shift(seat)}`).join(" "),
      "stroke-dasharray": DASHES[seat % DASHES.length] || null,
    }),
    // Each line has its own marker shape, so the lines differ by more than colour.
    ...values.map((v, i) => marker(seat, x(i), y(v) + shift(seat)))));
  const legend = names.map((name, seat) => h("li", { class: LINE_CLASSES[seat % LINE_CLASSES.length] },
    s("svg", { viewBox: "0 0 20 10", "aria-hidden": "true" }, s("line", { x1: 0, y1: 5, x2: 20, y2: 5,
      "stroke-dasharray": DASHES[seat % DASHES.length] || null }),
    marker(seat, 10, 5)), ` ${name} ${score(state.scores[seat])}`));
  const description = names.map((n, seat) => `${n} ${score(state.scores[seat])}`).join(", ");
  return h("figure", { class: "chart" },
    s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Totals after ${rounds === 1 ? "1 round" : `${rounds} rounds`}: ${description}. Target ${target}.` },
      ...(targetShown ? targetMarks(target, high, y, pad, W) : [
        s("text", { x: 2, y: y(high) + 4, class: "axis" }, high),
        s("text", { x: W - pad.r, y: pad.t + 4, class: "axis target-note", "text-anchor": "end" },
          `Game ends at ${target}`)]),
      s("line", { x1: pad.l, x2: W - pad.r, y1: y(0), y2: y(0), class: "zero" }),
      s("text", { x: 2, y: y(0) + 4, class: "axis" }, 0),
      ...lines),
    h("figcaption", {}, h("ul", { class: "legend" }, legend)));
}

/** Two numbers on the axis nearer than this (in the chart's units) would print one over
 * the other. */
const LABEL_GAP = 11;

/** The target's dashed line and its words, and the chart's top where a total went past
 * the target. The note goes under the line's left end, where no total has climbed yet
 * (every line starts at nought). A short game's target sits down by nought (a game to 5
 * that ended on a round of 17): its number would print over the 0 and its note over the
 * lines' start, so the note says the number, at the top left, where the lines have not
 * yet climbed. */
function targetMarks(target, high, y, pad, W) {
  const near = y(0) - y(target) < 2 * LABEL_GAP;
  const marks = [s("line", { x1: pad.l, x2: W - pad.r, y1: y(target), y2: y(target), class: "target" })];
  if (!near) marks.push(s("text", { x: 2, y: y(target) + 4, class: "axis" }, target));
  if (high > target && y(target) - y(high) >= LABEL_GAP) {
    marks.push(s("text", { x: 2, y: y(high) + 4, class: "axis" }, high));
  }
  marks.push(near
    ? s("text", { x: pad.l + 4, y: pad.t + 8, class: "axis target-note" },
      `Game ends at ${target} (dashed line)`)
    : s("text", { x: pad.l + 4, y: y(target) + 12, class: "axis target-note" }, "Game ends"));
  return marks;
}

/** A round number a quarter or so over `highest`, for the chart's top (at least 10). */
function chartTop(highest) {
  const step = highest > 50 ? 10 : 5;
  return Math.max(10, Math.ceil((highest * 1.25) / step) * step);
}

const MARKERS = [
  (cx, cy, r) => s("circle", { cx, cy, r }),
  (cx, cy, r) => s("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r }),
  (cx, cy, r) => s("path", { d: `M${cx} ${cy - r - 1}L${cx + r + 1} ${cy + r}H${cx - r - 1}Z` }),
  (cx, cy, r) => s("path", { d: `M${cx} ${cy - r - 1}L${cx + r + 1} ${cy}L${cx} ${cy + r + 1}L${cx - r - 1} ${cy}Z` }),
];

function marker(seat, cx, cy) {
  return MARKERS[seat % MARKERS.length](cx, cy, 3);
}

/** A full moon, drawn (emoji fonts are not everywhere). */
export function moonIcon(label = null) {
  const attrs = { viewBox: "0 0 20 20", class: "icon moon" };
  if (label) {
    attrs.role = "img";
    attrs["aria-label"] = label;
  } else {
    attrs["aria-hidden"] = "true";
  }
  return s("svg", attrs, s("circle", { cx: 10, cy: 10, r: 8 }),
    s("circle", { cx: 7, cy: 8, r: 1.6, class: "crater" }), s("circle", { cx: 12, cy: 12, r: 2.2, class: "crater" }));
}

function trophy() {
  return s("svg", { viewBox: "0 0 20 20", class: "icon trophy", role: "img", "aria-label": "winner" },
    s("path", { d: "M5 2h10v4a5 5 0 0 1-10 0zM9 11h2v4h3v3H6v-3h3zM5 4H2v1a3 3 0 0 0 3 3zM15 4h3v1a3 3 0 0 1-3 3z" }));
}

/** The place of each total, lowest first: equal totals share a place and the places after
 * them skip on (standard competition ranking).
 * places([0, 0, 3, 3, 3, 9]) -> [1, 1, 3, 3, 3, 6] */
export function places(totals) {
  return totals.map((total) => 1 + totals.filter((other) => other < total).length);
}

/** Who is ranked: each player, or in Partnership Hearts each team (the person's team and
 * the others, who score together). */
function standingsEntries(state) {
  const partner = state.view.partner;
  if (partner === null || partner === undefined) return allSeats(state).map((seat) => [seat]);
  const mine = [state.view.seat, partner];
  return [mine, allSeats(state).filter((seat) => !mine.includes(seat))];
}

/** The final standings, lowest total first. A place two or more share shows the same number
 * on each, with "tied". */
export function standings(state) {
  const labels = rowLabels(state);
  const entries = standingsEntries(state)
    .map((seats) => ({ seats, total: state.scores[seats[0]] }))
    .sort((a, b) => a.total - b.total);
  const place = places(entries.map((entry) => entry.total));
  const shared = (i) => place.filter((p) => p === place[i]).length > 1;
  return h("ol", { class: "standings" }, entries.map((entry, i) => {
    const won = entry.seats.some((seat) => state.winners.includes(seat));
    const mine = entry.seats.some((seat) => isMe(state, seat));
    return h("li", {
      value: place[i],
      ...mineMark(mine, won ? "won" : ""),
      "data-place": place[i],
      "data-tied": shared(i) ? "true" : null,
    }, h("span", { class: "name" }, entry.seats.map((seat) => labels[seat]).join(" & ")),
    // Read as "You, 26 points", not "You26".
    h("span", { class: "sr" }, ", "),
    h("span", { class: "total" }, score(entry.total)),
    h("span", { class: "sr" }, entry.total === 1 || entry.total === -1 ? " point" : " points"),
    shared(i) ? h("span", { class: "tied" }, " tied") : null,
    won ? trophy() : null);
  }));
}

export function winnerLine(state) {
  // The person first: "You and Ana share the win", never "Ana and You".
  const mine = state.winners.some((seat) => isMe(state, seat));
  const others = state.winners.filter((seat) => !isMe(state, seat)).map((seat) => named(state.players[seat].name));
  if (mine && !others.length) return "You win!";
  if (!mine && others.length === 1) return `${others[0]} wins.`;
  return `${listed(mine ? ["You", ...others] : others)} share the win.`;
}
