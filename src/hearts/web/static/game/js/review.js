// The coach's review of a finished round, asked for from the round-over panel: the round's
// total cost against the hard player's choices, the two or three costliest decisions with
// the coach's preference and reason, and the whole review
// (GET /api/games/{id}/review?round=N). A review is seconds of the server's time, so it is
// made when asked for, and kept here per round once it has come.

import { api } from "./api.js";
import { h, clear } from "./dom.js";
import { cardName } from "./cards.js";

const reviews = new Map(); // "id:round" -> Promise of the review

function fetchReview(id, round) {
  const key = `${id}:${round}`;
  if (!reviews.has(key)) {
    const promise = api.review(id, round);
    promise.catch(() => reviews.delete(key)); // a failure may be asked again
    reviews.set(key, promise);
  }
  return reviews.get(key);
}

const points = (cost) => `${cost.toFixed(1)} point${cost.toFixed(1) === "1.0" ? "" : "s"}`;

function decisionLine(d) {
  const what = d.kind === "pass" ? "Your pass" : `Trick ${d.trick}`;
  const played = d.played.map(cardName).join(", ");
  const preferred = d.preferred.map(cardName).join(", ");
  if (d.cost === 0) return h("li", { "data-cost": "0" }, h("strong", {}, `${what}: `), `${played}, no cost.`);
  const cost = d.cost === null ? "not weighed" : `about ${points(d.cost)}`;
  return h("li", { "data-cost": d.cost ?? "" },
    h("strong", {}, `${what}: `), `you played ${played}; the coach prefers ${preferred} (${cost}). `,
    h("span", { class: "review-reason" }, d.reason));
}

function fill(box, review) {
  const worst = review.costliest.map((i) => review.decisions[i]);
  clear(box,
    h("h3", {}, "The coach's review"),
    h("p", { "data-region": "review-total" }, review.total_cost > 0
      ? `Against the hard player's choices, your decisions cost about ${points(review.total_cost)} this round.`
      : "Every decision this round was as good as the hard player's."),
    worst.length ? h("ol", { class: "review-worst" }, worst.map(decisionLine)) : null,
    h("details", {}, h("summary", { "data-action": "whole-review" }, "The whole review"),
      h("ol", { class: "review-all" }, review.decisions.map(decisionLine))));
  box.dataset.ready = "true";
}

function ask(box, id, round) {
  clear(box, h("p", {}, "The coach is looking over your decisions…"));
  fetchReview(id, round).then((review) => fill(box, review),
    (error) => clear(box, h("p", {}, `No review this time: ${error.message}`)));
}

/** The review's place in the round-over panel: a button, or the review once asked for. */
export function reviewSummary(state) {
  const result = state.results[state.results.length - 1];
  if (!result) return null;
  const round = result.hand_number + 1;
  const box = h("section", { class: "review", "data-region": "review", "aria-live": "polite" });
  if (reviews.has(`${state.id}:${round}`)) {
    ask(box, state.id, round);
  } else {
    box.append(h("button", { type: "button", "data-action": "review", onclick: () => ask(box, state.id, round) },
      "Review my decisions"));
  }
  return box;
}
