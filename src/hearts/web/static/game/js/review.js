// The coach's review of a finished round, shown by itself on the round-over panel: at how
// many decisions the coach would have chosen otherwise, and the two or three costliest
// decisions with the coach's preference and reason, with the whole review one tap away
// (GET /api/games/{id}/review?round=N, the caller's own seat only). The server reviews each
// decision in the background as it is made, so the review is usually ready when the round
// ends; until it comes the panel says so in one quiet line. The panel puts it below the way
// on, so filling it in never moves the "Deal the next round" button.

import { api } from "./api.js";
import { h, clear } from "./dom.js";
import { listed } from "./words.js";
import { cardSymbol, spoken } from "./cards.js";

const reviews = new Map(); // "id:round" -> {promise, value}

function fetchReview(id, round) {
  const key = `${id}:${round}`;
  if (!reviews.has(key)) {
    const entry = { promise: api.review(id, round), value: null };
    entry.promise.then((review) => { entry.value = review; }, () => reviews.delete(key)); // a failure may be asked again
    reviews.set(key, entry);
  }
  return reviews.get(key);
}

/** ["8S", "KS", "9H"] -> "8♠, K♠ and 9♥" */
const cards = (list) => listed(list.map(cardSymbol));
/** Whether two lists of cards hold the same cards (a pass's, in any order). */
const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
/** "0.4 points", "1.0 point", "24 points": a tenth says something under ten points, and
 * only reads as a precision the search does not have above it. */
const points = (cost) => {
  const said = cost.toFixed(cost >= 9.95 ? 0 : 1);
  return `${said} point${said === "1.0" ? "" : "s"}`;
};

export function decisionLine(d) {
  const what = d.kind === "pass" ? "Your pass" : `Trick ${d.trick}`;
  const verb = d.kind === "pass" ? "you passed" : "you played";
  // The cards are said in words (`spoken`), as they are seen in symbols.
  if (d.cost === 0 && d.hinted) {
    return h("li", { "data-cost": "0" }, h("strong", {}, `${what}: `),
      spoken(`${verb} ${cards(d.played)}, the card the hint gave, as the coach would.`));
  }
  if (d.cost === 0 && sameCards(d.played, d.preferred)) {
    return h("li", { "data-cost": "0" }, h("strong", {}, `${what}: `), spoken(`${verb} ${cards(d.played)}, as the coach would.`));
  }
  if (d.cost === 0) {
    // Another card, as good as the coach's search can tell: no other card preferred, and
    // no reason given (the coach's reason for its own card read as one against yours).
    return h("li", { "data-cost": "0" }, h("strong", {}, `${what}: `),
      spoken(`${verb} ${cards(d.played)}, as good as the ${cards(d.preferred)} the coach would ${d.kind === "pass" ? "pass" : "play"}.`));
  }
  // What the person's choice cost, said apart from the reason's own comparison (the coach's
  // card against its next best), so that the two numbers are not taken for one; then what
  // was wrong with the card played, when a fact of the position says it.
  const cost = d.cost === null ? " (by how much, it could not measure)" : `: yours cost about ${points(d.cost)}`;
  const whyNot = d.why_not ? `${d.why_not[0].toUpperCase()}${d.why_not.slice(1)}. ` : "";
  return h("li", { "data-cost": d.cost ?? "" },
    h("strong", {}, `${what}: `), spoken(`${verb} ${cards(d.played)}; the coach prefers ${cards(d.preferred)}${cost}. ${whyNot}`),
    h("span", { class: "review-reason" }, spoken(d.reason)));
}

/** The round in one sentence: at how many decisions the coach would have chosen otherwise
 * (weighed, or not: a table the hard player does not search), and whether the costs count
 * the game's result (a round that could end the game: `review.game_end`). No sum: each cost
 * is a choice against the coach's as things stood then, and one chance missed twice (a
 * moon let go on two tricks) would count twice, past all a round holds. */
export function reviewTotal(review) {
  if (!review.decisions.length && review.stood_in) {
    return "A computer player played this round for you, when your time ran out or you were away: nothing of yours to review.";
  }
  const all = review.decisions.length;
  const costly = review.decisions.filter((d) => d.cost > 0).length;
  const unweighed = review.decisions.filter((d) => d.cost === null).length;
  const of = (n) => (all === 1 ? "your only decision" : `${n} of your ${all} decisions`);
  const Of = (n) => (all === 1 ? "Your only decision" : of(n));
  if (!costly && !unweighed) {
    return all === 1 ? "Your decision this round was as good as the hard player's."
      : "Every decision this round was as good as the hard player's.";
  }
  if (!costly) {
    return `The coach would have chosen otherwise at ${of(unweighed)} this round, but could not measure by how much.`;
  }
  // Two short sentences where one long one ran on with its brackets: what cost, then how
  // the game's end counts when this round could bring it.
  const end = review.game_end;
  const counting = end ? ` With the game at stake, a win counts as ${end} points fewer and a loss as ${end} more.` : "";
  const rest = unweighed
    ? ` At ${unweighed} more it would have chosen otherwise, by an amount it could not measure.` : "";
  const where = all === 1 ? "" : " at each";
  return `${Of(costly)} this round cost points: the coach would have chosen otherwise${where}.${counting}${rest}`;
}

/** When the person's moon (or their team's, or a sun) came off and the review still finds
 * costs: each is judged as things stood at its card, so a risk that paid reads as a cost. */
export function moonNote(review, shot) {
  if (!shot || !review.decisions.some((d) => d.cost > 0)) return null;
  return `${shot.team ? "Your team's" : "Your"} ${shot.sun ? "sun" : "moon"} came off. `
    + "Each cost is what the card risked as things stood when you played it, not what it brought in the end.";
}

/** The words over the list of decisions the panel shows (`shownDecisions`). */
export function listLead(review, shown) {
  if (!review.decisions.some((d) => d.cost > 0)) return null; // the first line said it
  const unweighed = shown.filter((d) => d.cost === null).length;
  const then = unweighed > 1 ? "; then those it could not measure" : unweighed ? "; then one it could not measure" : "";
  return `The costliest, each as things stood then${then}:`;
}

/** The decisions the panel shows: the costliest, then (when fewer than three) those the
 * coach would have made otherwise by an amount it could not measure. */
export function shownDecisions(review) {
  const worst = review.costliest.map((i) => review.decisions[i]);
  const unweighed = review.decisions.filter((d) => d.cost === null);
  return [...worst, ...unweighed].slice(0, Math.max(3, worst.length));
}

function fill(box, review, shot) {
  const worst = shownDecisions(review);
  const moon = moonNote(review, shot);
  clear(box,
    h("h3", { id: "review-title" }, "The coach's review"),
    h("p", { "data-region": "review-total" }, reviewTotal(review)),
    moon ? h("p", { class: "hint", "data-region": "review-moon" }, moon) : null,
    review.stood_in && review.decisions.length
      ? h("p", { class: "hint", "data-region": "review-stood-in" },
        `A computer player made ${review.stood_in === 1 ? "one of your moves" : `${review.stood_in} of your moves`} `
        + "when your time ran out or you were away: the review leaves them out.")
      : null,
    worst.length && listLead(review, worst) ? h("p", { "data-region": "review-lead" }, listLead(review, worst)) : null,
    worst.length ? h("ol", { class: "review-worst" }, worst.map(decisionLine)) : null,
    review.decisions.length
      ? h("details", {}, h("summary", { "data-action": "whole-review" },
        `The whole review (${review.decisions.length === 1 ? "1 decision" : `${review.decisions.length} decisions`})`),
        h("ol", { class: "review-all" }, review.decisions.map(decisionLine)))
      : null);
  box.dataset.ready = "true";
  box.removeAttribute("aria-busy");
}

function load(box, id, round, shot) {
  const entry = fetchReview(id, round);
  if (entry.value) return fill(box, entry.value, shot);
  box.dataset.ready = "false";
  box.setAttribute("aria-busy", "true");
  clear(box, h("p", { class: "hint", "data-region": "review-wait" }, "The coach is still looking over your decisions…"));
  entry.promise.then((review) => { if (box.isConnected) fill(box, review, shot); },
    (error) => {
      if (!box.isConnected) return;
      box.removeAttribute("aria-busy");
      clear(box, h("p", { class: "hint" }, `No review this time: ${error.message} `,
        h("button", { type: "button", class: "link", "data-action": "review", onclick: () => load(box, id, round, shot) }, "Try again")));
    });
}

/** A round being played has no review yet: forget one kept for it (a card taken back after
 * the round ended reopens it, and its review will be another). */
export function forgetReview(state) {
  reviews.delete(`${state.id}:${state.view.hand_number + 1}`);
}

/** The review's place on the round-over panel: it loads by itself. */
export function reviewSummary(state) {
  const result = state.results[state.results.length - 1];
  if (!result) return null;
  // Not a live region: the review is read on demand (arriving just as the round ended, it
  // was read out whole, two hundred words, each time the panel opened).
  const box = h("section", { class: "review", "data-region": "review", "aria-labelledby": "review-title" });
  // The person's own moon, or their partner's: the team's.
  const { seat, partner } = state.view;
  const ours = result.shooter !== null && (result.shooter === seat || result.shooter === partner);
  load(box, state.id, result.hand_number + 1, ours ? { team: partner !== null, sun: result.sun } : null);
  return box;
}
