// The panels over the table between rounds: the person's moon choice, the round's summary
// with the score sheet and chart, and the end of the game.

import { h } from "./dom.js";
import { dealCheckLink } from "./deal-check.js";
import { replayRoundLink } from "./replay-link.js";
import { forgetReview, reviewSummary } from "./review.js";
import { face } from "./faces.js";
import { moonIcon, roundSummary, scoreSheet, totalsChart, standings, winnerLine } from "./scores.js";
import { isMe, listed, named, queenWords, quipLine, roundTitle, score, signed, takersOf, whoIs } from "./words.js";
import { cardName } from "./cards.js";
import { hintsTaken, rematchButton } from "./friends.js";

/**
 * The panel for this state, or null while a round is being played.
 * actions: {moon(choice), next(), again(), setup()}; opponents from /api/options; notes:
 * {playedItself}, the round's last cards played by themselves (no point could move).
 */
export function overlayPanel(state, opponents, actions, notes = {}) {
  const friends = Boolean(state.table?.friends);
  if (state.phase === "moon-choice" && state.moon_pending !== state.view.seat) {
    // Who is waited on, what is at stake, and (a partner) that the moon is theirs too.
    const chooser = named(state.players[state.moon_pending].name);
    const sun = state.moon_stake > state.view.round_points;
    const what = sun ? "sun" : "moon";
    const teams = state.view.partner !== null && state.view.partner !== undefined;
    const ours = teams && state.view.partner === state.moon_pending;
    const stake = state.moon_stake;
    let words = `Waiting for ${chooser} to choose how it scores: ${stake} off their total, or ${stake} to everyone else.`;
    if (ours) words = `${chooser} chooses how it scores: ${stake} off your team's totals, or ${stake} to each of the others.`;
    else if (teams) words = `Waiting for ${chooser} to choose how it scores: ${stake} off their team's totals, or ${stake} to each of you.`;
    const who = ours ? "Your team" : teams ? `${chooser}'s team` : chooser;
    // The chooser's clock is under this panel: its seconds are said here.
    return panel("moon-title", `${who} shot the ${what}`,
      h("p", { "data-region": "moon-wait" }, words),
      moonScoresLine(state),
      friends ? moonTimer(state.moon_pending, `${chooser} has {s} s left to choose.`) : null);
  }
  if (state.phase === "moon-choice") return moonPanel(state, actions);
  if (state.phase === "round-over") {
    return panel("round-title", `${roundTitle(state.view.hand_number)} is over`,
      playedItselfLine(notes),
      roundSummary(state),
      myTotal(state),
      playOnLine(state),
      opponentWords(state, opponents),
      dealCheckLink(state),
      replayRoundLink(state),
      // The way on comes before the chart and before the coach's review, which may fill in
      // later: it never moves the button. On a short screen it keeps to the foot of the
      // screen until scrolled to, however long the round's news (a moon, several quotes).
      watchStuck(h("div", { class: "way-on" },
        nextRoundButton(state, actions.next),
        friends ? h("p", { class: "hint deal-timer", "data-timer": "deal", hidden: true }) : null,
        statusLine())),
      reviewSummary(state),
      h("div", { class: "two" }, totalsChart(state), scoreSheet(state)));
  }
  if (state.phase === "game-over") {
    // The last round's own summary comes first: how the game was decided.
    return panel("over-title", `Game over. ${winnerLine(state)}`,
      standings(state),
      hintsTaken(state),
      h("section", { class: "last-round", "aria-labelledby": "last-round-title" },
        h("h3", { id: "last-round-title" }, `${roundTitle(state.view.hand_number)}, the last`),
        playedItselfLine(notes),
        roundSummary(state),
        myTotal(state),
        opponentWords(state, opponents),
        dealCheckLink(state),
        replayRoundLink(state)),
      watchStuck(h("div", { class: "row way-on" },
        // With the button, so it is in sight with it (the status line is under the panel).
        friends && state.table.rematch
          ? h("p", { class: "rematch-note", "data-region": "rematch-note" },
            // Said so that it holds once the rematch has started too (this page is not told).
            "A rematch is set up at this table: join it to take your seat. Once it has started, a computer player plays for you until you come.")
          : null,
        friends
          ? rematchButton(state, actions.rematch)
          : h("button", { type: "button", class: "primary", "data-action": "play-again", onclick: actions.again },
            "Play again"),
        h("button", { type: "button", "data-action": "change-table", onclick: actions.setup },
          friends ? "Leave the table" : "Change the table"),
        statusLine())),
      reviewSummary(state),
      h("p", { class: "deal-check" },
        h("a", { href: "/stats", "data-action": "your-games" }, "Your games"),
        ": statistics, and every finished game's record"),
      h("div", { class: "two" }, totalsChart(state), scoreSheet(state)));
  }
  if (state.phase === "passing" || state.phase === "playing") forgetReview(state);
  return null;
}

/** "Deal the next round"; at a table of friends each person says they are ready, and the
 * round is dealt once everyone here has (or when the turn time runs out). */
function nextRoundButton(state, next) {
  const attrs = { type: "button", class: "primary wide", "data-action": "next-round", onclick: next };
  if (!state.table?.friends) return h("button", attrs, "Deal the next round");
  const waiting = state.table.waiting_on;
  const me = state.view.seat;
  const others = waiting.filter((seat) => seat !== me);
  if (others.length && !waiting.includes(me)) {
    // aria-disabled, not disabled: the button keeps the keyboard that pressed it (a disabled
    // one let it fall to the page's body), and is read out with whom it waits for.
    return h("button", { ...attrs, onclick: null, "aria-disabled": "true", "data-waiting": "true" },
      `Waiting for ${listed(others.map((seat) => named(state.players[seat].name)))}`);
  }
  const ready = state.players.filter((p) => p.person && !p.open && !p.away && !p.you
    && !waiting.includes(p.seat)).map((p) => named(p.name));
  // data-ready: the longer words, for which the panel's column beside the table is wider.
  return [h("button", others.length ? { ...attrs, "data-ready": "true" } : attrs,
    others.length ? "Ready for the next round" : "Deal the next round"),
    ready.length ? h("p", { class: "hint", "data-region": "ready-note" },
      `${listed(ready)} ${ready.length === 1 ? "is" : "are"} ready.`) : null];
}

/** Why the round ended with cards still in hand: said here, where it is seen (the line
 * over the table lay under this panel the moment it was set). */
function playedItselfLine(notes) {
  return notes.playedItself
    ? h("p", { class: "hint", "data-region": "played-itself" },
      "No point could change hands any more, so the last cards played themselves.")
    : null;
}

// The way on keeps to the foot of a short screen (sticky) over the panel's rows: while it
// does, a shadow over it says it lies on top of them. Sticky, it sits a pixel past the foot
// of the scrolling box; at its own place it is above it. Worked out on every scroll of that
// box (an intersection observer missed a long scroll that took it past the top at once).
let stuckBar = null;

function watchStuck(bar) {
  if (stuckBar === null) {
    const check = () => markStuck(stuckBar);
    document.addEventListener("scroll", check, { capture: true, passive: true });
    window.addEventListener("resize", check);
  }
  stuckBar = bar; // one way on at a time: the last panel's is gone
  requestAnimationFrame(() => markStuck(bar));
  return bar;
}

function markStuck(bar) {
  const box = bar?.isConnected ? bar.closest("[data-region=overlay]") : null;
  if (!box) return;
  const foot = Math.min(box.getBoundingClientRect().bottom, innerHeight);
  bar.classList.toggle("stuck", bar.getBoundingClientRect().bottom > foot);
}

/** A panel named by its heading (which takes the focus when it has no button to take it),
 * and described by the round's news: the focus goes to its way on, and a screen reader
 * said "Round 1 is over" and the button, nothing of how the round went. */
function panel(titleId, title, ...content) {
  const box = h("div", { class: "sheet-panel", role: "dialog", "aria-labelledby": titleId },
    h("h2", { id: titleId, tabindex: "-1" }, title), ...content);
  const news = [...box.querySelectorAll(".moon-news, .queen-news, .kitty-news, .play-on-news, [data-region=my-total]")];
  news.forEach((line, i) => { line.id = `${titleId}-news-${i + 1}`; });
  if (news.length) box.setAttribute("aria-describedby", news.map((line) => line.id).join(" "));
  return box;
}

/** Why the game goes on though someone reached the target (the engine says who reached it
 * and who tie for the lowest): without it, a game past its target just dealt again. */
function playOnLine(state) {
  const on = state.play_on;
  if (!on) return null;
  const who = (seats) => listed([...seats].sort((a, b) => isMe(state, b) - isMe(state, a))
    .map((seat) => whoIs(state, seat)));
  const reached = who(on.reached);
  const has = on.reached.length === 1 && !isMe(state, on.reached[0]) ? "has" : "have";
  const one = state.view.partner !== null && state.view.partner !== undefined ? "one team" : "one player";
  return h("p", { class: "play-on-news", "data-region": "play-on" },
    `${reached} ${has} reached the target of ${state.view.rules.target_score}, but ${who(on.tied)} are tied for the lowest total (${score(state.scores[on.tied[0]])}). With ties played on, the game goes on until ${one} alone has the lowest.`);
}

/** The person's total and this round's part of it, for the panel's description only (the
 * score sheet shows it). */
function myTotal(state) {
  const result = state.results[state.results.length - 1];
  const seat = state.view.seat;
  if (!result) return null;
  const scored = result.scores[seat];
  return h("p", { class: "sr", "data-region": "my-total" },
    `Your total: ${score(state.scores[seat])} (${signed(scored)} this round).`);
}

function moonPanel(state, actions) {
  // In Partnership Hearts the moon is the team's, and so is the choice.
  const partner = state.view.partner;
  const team = partner !== null && partner !== undefined;
  const others = state.players.filter((p) => p.seat !== state.view.seat && p.seat !== partner)
    .map((p) => named(p.name));
  // A sun (every trick, with the sun played) moves twice a moon's points: said as such.
  const sun = state.moon_stake > state.view.round_points;
  const taken = sun ? "every trick is yours" : `every heart and ${queenWords(state)} are yours`;
  const said = team
    ? `Between you and ${named(state.players[partner].name)}, ${taken}.`
    : `${taken[0].toUpperCase()}${taken.slice(1)}.`;
  return h("div", { class: "sheet-panel", role: "dialog", "aria-labelledby": "moon-title" },
    h("h2", { id: "moon-title" }, moonIcon(), `${team ? " Your team" : " You"} shot the ${sun ? "sun" : "moon"}!`),
    h("p", {}, `${said} How should it score?`),
    h("p", { class: "hint" }, "Totals before this round: ",
      state.players.map((p, seat) => `${named(p.name)} ${score(state.scores[seat])}`).join(" · "),
      `. The game ends at ${state.view.rules.target_score}.`),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", "data-action": "moon-subtract",
        onclick: () => actions.moon("subtract") }, `Take ${state.moon_stake} off ${team ? "our totals" : "my total"}`),
      h("button", { type: "button", class: "primary", "data-action": "moon-add",
        onclick: () => actions.moon("add") },
      team ? `Give ${listed(others)} ${state.moon_stake} each` : `Give everyone else ${state.moon_stake}`)),
    moonScoresLine(state),
    state.table?.friends
      ? moonTimer(state.view.seat, "{s} s left to choose: then a computer player chooses for you.")
      : null,
    statusLine());
}

/** What each choice scores this round, from the engine, when the bonus card moves it off the
 * stake alone: with the J♦ in the other team's tricks, "give" scores them 16 each, not 26. */
function moonScoresLine(state) {
  const scores = state.moon_scores;
  const bonus = state.view.rules?.bonus_card;
  const stake = state.moon_stake;
  if (!scores || !bonus) return null;
  if ([...scores.add, ...scores.subtract].every((p) => p === 0 || Math.abs(p) === stake)) return null;
  const row = (points) => points.map((p, seat) => `${whoIs(state, seat)} ${signed(p)}`).join(", ");
  const takers = takersOf(state.view.tricks || [], bonus).map((seat) => whoIs(state, seat));
  // In the buttons' order: taken off first.
  return h("p", { class: "hint", "data-region": "moon-scores" },
    `The ${cardName(bonus)} counts too${takers.length ? ` (${listed(takers)} took it)` : ""}: `
    + `taking ${stake} off scores ${row(scores.subtract)}; giving ${stake} scores ${row(scores.add)}.`);
}

/** The status line's words, by the panel's way on: the line itself lies under the panel
 * (a Ready tapped offline said so there, where nobody saw it). main.js fills it in. */
function statusLine() {
  return h("p", { class: "panel-status", "data-region": "panel-status", hidden: true });
}

/** A line counting down a moon's choice at a table with a turn time (`TurnClock` fills it
 * in, and hides it without one). */
function moonTimer(seat, line) {
  return h("p", { class: "hint", "data-timer": String(seat), "data-timer-line": line, hidden: true });
}

/** A line from an opponent who had a notable round: a moon, or nothing taken at all. */
function opponentWords(state, opponents) {
  const result = state.results[state.results.length - 1];
  if (!result) return null;
  const quotes = [];
  state.players.forEach((player, seat) => {
    const opponent = opponents.find((o) => o.id === player.character);
    if (!opponent) return; // a person, not a character
    const line = (kind) => quipLine(opponent.quips[kind], result.hand_number, seat);
    if (result.shooter === seat) quotes.push([opponent, line("moon")]);
    else if (result.shooter === null && result.points_taken[seat] === 0) quotes.push([opponent, line("clean")]);
  });
  if (!quotes.length) return null;
  return h("ul", { class: "quotes" }, quotes.map(([opponent, words]) => h("li", {},
    face(opponent.face, "pleased"), h("span", {}, h("strong", {}, opponent.name), ` “${words}”`))));
}
