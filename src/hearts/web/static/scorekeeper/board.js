// The scoreboard (totals, who leads, the next pass, the winner) and the history of rounds.

import { h, clear, signed, total } from "./dom.js";
import {
  BONUS_CARDS,
  EXACT_TARGET,
  MOON_RULES,
  PASS_ARROWS,
  PASS_SHORT,
  PASS_WORDS,
  bonusName,
  decksFor,
  joinNames,
  pointsPerRound,
} from "./model.js";

export function rulesLine(game) {
  const { settings, players } = game;
  const points = String(pointsPerRound(players.length));
  const parts = [
    `Game to ${settings.target}`,
    `moon: ${MOON_RULES[settings.moonRule].replaceAll("26", points).toLowerCase()}`,
  ];
  if (settings.bonus !== "none") parts.push(`bonus card: ${BONUS_CARDS[settings.bonus].toLowerCase()}`);
  if (settings.exact !== "none") parts.push(`exactly ${settings.target}: ${EXACT_TARGET[settings.exact].toLowerCase()}`);
  if (settings.tie === "play-on") parts.push("a tie at the end plays on");
  parts.push(decksFor(players.length) === 1 ? "one deck" : "two decks");
  return `${parts.join(" · ")}.`;
}

/** The headline: who leads or won, and what the next round passes. */
export function renderSummary(root, game, sum) {
  const names = (indexes) => joinNames(indexes.map((i) => game.players[i]));
  let headline;
  if (sum.over) {
    const score = total(sum.totals[sum.winners[0]]);
    headline =
      sum.winners.length === 1
        ? h("p", { class: "headline win", dataset: { winner: game.players[sum.winners[0]] } },
            h("span", { class: "badge" }, "Game over"), ` ${names(sum.winners)} wins with ${score}.`)
        : h("p", { class: "headline win", dataset: { winner: names(sum.winners), tie: "true" } },
            h("span", { class: "badge" }, "Game over"), ` A tie: ${names(sum.winners)} share the win with ${score}.`);
  } else if (sum.tieBreak) {
    const score = total(sum.totals[sum.leaders[0]]);
    headline = h("p", { class: "headline", dataset: { leader: names(sum.leaders), tieBreak: "true" } },
      `${names(sum.leaders)} tie for the lowest total with ${score}: one more round to break the tie.`);
  } else if (sum.leaders.length) {
    const score = total(sum.totals[sum.leaders[0]]);
    const verb = sum.leaders.length === 1 ? "leads" : "share the lead";
    headline = h("p", { class: "headline", dataset: { leader: names(sum.leaders) } },
      `${names(sum.leaders)} ${verb} with ${score}.`);
  } else {
    headline = h("p", { class: "headline", dataset: { leader: "" } }, "No rounds yet. Lowest total wins.");
  }
  // Player 1 deals the first round; the deal moves one seat to the left (clockwise) each round.
  const dealer = game.players[(sum.nextRound - 1) % game.players.length];
  const next = sum.over
    ? null
    : h(
        "div",
        { class: "next-round" },
        h(
          "p",
          { class: "next-pass", dataset: { nextPass: sum.nextPass } },
          h("span", { class: "round-no" }, `Round ${sum.nextRound}`),
          h("span", { class: "arrow", "aria-hidden": "true" }, PASS_ARROWS[sum.nextPass]),
          h("span", {}, PASS_WORDS[sum.nextPass]),
        ),
        h("p", { class: "dealer", dataset: { dealer } }, `${dealer} deals`),
      );
  clear(root, headline, next);
}

/** One card per player: name, total, and words (never colour alone) for leader and winner. */
export function renderScoreboard(root, game, sum) {
  root.classList.toggle("many", game.players.length > 6);
  const marks = sum.over ? sum.winners : sum.leaders;
  const word = sum.over ? "Winner" : "Leads";
  clear(
    root,
    game.players.map((name, i) =>
      h(
        "li",
        { class: `score-card${marks.includes(i) ? " marked" : ""}`, dataset: { player: i } },
        h(
          "span",
          { class: "card-top" },
          h("span", { class: "name" }, name),
          marks.includes(i) ? h("span", { class: "badge" }, word) : null,
        ),
        h("span", { class: "total", dataset: { total: sum.totals[i] } }, total(sum.totals[i])),
      ),
    ),
  );
}

export function renderHistory(root, game, sum) {
  if (!sum.history.length) {
    clear(root);
    return;
  }
  const card = bonusName(game.settings.bonus);
  const rows = sum.history.flatMap((round) => {
    const notes = [...round.notes];
    round.entry.bonus.forEach((count, i) => {
      if (count && game.settings.bonus !== "none") {
        notes.push(`${game.players[i]} took the ${card}${count > 1 ? ` ×${count}` : ""} (−${10 * count}).`);
      }
    });
    const main = h(
      "tr",
      { dataset: { round: round.index + 1 } },
      h(
        "th",
        { scope: "row" },
        h("span", { class: "delta" }, String(round.index + 1)),
        h("span", { class: "running" }, PASS_SHORT[round.pass]),
      ),
      round.points.map((points, i) =>
        h(
          "td",
          { class: "num" },
          h("span", { class: "delta" }, round.entry.moon?.shooter === i ? `${signed(points)} ☾` : signed(points)),
          h("span", { class: "running" }, total(round.totals[i])),
        ),
      ),
    );
    if (!notes.length) return [main];
    const note = h("td", { colspan: game.players.length + 1 }, h("span", {}, notes.join(" ")));
    return [main, h("tr", { class: "note" }, note)];
  });
  clear(
    root,
    h(
      "h2",
      { id: "history-title", class: "history-title" },
      "Rounds played",
      h("span", { class: "hint" }, " points scored, running total under each"),
    ),
    h(
      "div",
      { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "history-title" },
      h(
        "table",
        { class: "history", dataset: { table: "history" }, "aria-labelledby": "history-title" },
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Round and pass"), "#"),
            game.players.map((name) => h("th", { scope: "col" }, name))),
        ),
        h("tbody", {}, rows),
        h(
          "tfoot",
          {},
          h("tr", {}, h("th", { scope: "row" }, "Total"),
            sum.totals.map((t) => h("td", { class: "num" }, total(t)))),
        ),
      ),
    ),
  );
}
