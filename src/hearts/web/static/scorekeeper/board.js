// The scoreboard (totals, who is ahead, the next pass, the winner) and the history of rounds.

import { h, clear, signed, total } from "./dom.js";
import {
  BONUS_CARDS,
  EXACT_CHOICES,
  MOON_RULES,
  PASS_ARROWS,
  PASS_SHORT,
  PASS_WORDS,
  bonusName,
  decksFor,
  joinNames,
  pointsPerRound,
  teamLeads,
  named,
  teamName,
  teamOf,
  teamWords,
} from "./model.js";

/** The columns of the board: one per player, or one per team in partnership. */
function sides(game) {
  return teamLeads(game).map((i) => ({ seat: i, name: teamName(game, i), team: teamOf(game, i).length > 1 }));
}

/** The sides among some seats (a team counts once), named, with the verb that fits them:
 * `name` as the page's data keeps it, `words` with each name set apart for a sentence. */
function describe(game, seats) {
  const leads = [...new Set(seats.map((i) => teamOf(game, i)[0]))];
  // Teams are named "Ana and Cy": two of them level read "Ana and Cy and Ben and Dot".
  const list = (names) => (game.settings.partnership && names.length > 1
    ? `${names.slice(0, -1).join(", ")}, and ${names[names.length - 1]}`
    : joinNames(names));
  const name = list(leads.map((i) => teamName(game, i)));
  const words = list(leads.map((i) => teamWords(game, i)));
  const one = leads.length === 1 && !game.settings.partnership;
  return { leads, name, words, one, plural: !one, tie: leads.length > 1 };
}

export function rulesLine(game) {
  const { settings, players } = game;
  const points = String(pointsPerRound(players.length));
  const parts = [
    `Game to ${settings.target}`,
    `moon: ${MOON_RULES[settings.moonRule].replaceAll("26", points).toLowerCase()}`.replace(
      "everyone else gets",
      settings.partnership ? "the other team gets" : "everyone else gets",
    ),
  ];
  if (settings.bonus !== "none") parts.push(`bonus card: ${BONUS_CARDS[settings.bonus].toLowerCase()}`);
  if (settings.exact !== "none") parts.push(`exactly ${settings.target}: ${EXACT_CHOICES[settings.exact].toLowerCase()}`);
  if (settings.tie === "play-on") parts.push("a tie at the end plays on");
  if (settings.sun) parts.push(`the sun counts ${2 * Number(points)}`);
  if (settings.partnership) parts.push("partnership: players 1 and 3 against 2 and 4");
  parts.push(decksFor(players.length) === 1 ? "one deck" : "two decks");
  return `${parts.join(" · ")}.`;
}

/** The headline: who is ahead (the lowest total: in Hearts it wins) or won, and what the
 * next round passes. Never "leads": at a table that is who plays the first card of a trick. */
export function renderSummary(root, game, sum) {
  let headline;
  if (sum.over) {
    const won = describe(game, sum.winners);
    const score = total(sum.totals[won.leads[0]]);
    headline = won.tie
      ? h("p", { class: "headline win", dataset: { winner: won.name, tie: "true" } },
          h("span", { class: "badge" }, "Game over"), ` A tie: ${won.words} share the win with ${score}.`)
      : h("p", { class: "headline win", dataset: { winner: won.name } },
          h("span", { class: "badge" }, "Game over"), ` ${won.words} ${won.one ? "wins" : "win"} with ${score}.`);
  } else if (sum.tieBreak) {
    const tied = describe(game, sum.leaders);
    const score = total(sum.totals[tied.leads[0]]);
    headline = h("p", { class: "headline", dataset: { leader: tied.name, tieBreak: "true" } },
      `${tied.words} tie for the lowest total with ${score}: one more round to break the tie.`);
  } else if (sum.leaders.length) {
    const ahead = describe(game, sum.leaders);
    const score = total(sum.totals[ahead.leads[0]]);
    // Level at the lowest: said as the tie-break says it, without the round to play.
    const words = ahead.tie
      ? `${ahead.words} tie for the lowest total with ${score}.`
      : `${ahead.words} ${ahead.one ? "is" : "are"} ahead with ${score}.`;
    headline = h("p", { class: "headline", dataset: { leader: ahead.name } }, words);
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
        h("p", { class: "dealer", dataset: { dealer } }, `${named(dealer)} deals`),
      );
  clear(root, headline, next);
}

/** One card per player (or per team): name, total, and words (never colour alone) for the
 * lowest total ("Ahead") and the winner. */
export function renderScoreboard(root, game, sum) {
  const columns = sides(game);
  root.classList.toggle("many", columns.length > 6);
  const marks = sum.over ? sum.winners : sum.leaders;
  const word = sum.over ? "Winner" : "Ahead";
  clear(
    root,
    columns.map(({ seat, name, team }) =>
      h(
        "li",
        {
          class: `score-card${marks.includes(seat) ? " marked" : ""}${team ? " team" : ""}`,
          dataset: team ? { team: seat } : { player: seat },
        },
        h(
          "span",
          { class: "card-top" },
          h("span", { class: "name", dataset: { fit: "" } }, name),
          marks.includes(seat) ? h("span", { class: "badge" }, word) : null,
        ),
        h("span", { class: "total", dataset: { total: sum.totals[seat] } }, total(sum.totals[seat])),
      ),
    ),
  );
}

/** The history table; `fixing` is the index of a round being fixed (marked), or null. */
export function renderHistory(root, game, sum, fixing = null) {
  if (!sum.history.length) {
    clear(root);
    return;
  }
  const card = bonusName(game.settings.bonus);
  const columns = sides(game);
  const rows = sum.history.flatMap((round) => {
    const notes = [...round.notes];
    round.entry.bonus.forEach((count, i) => {
      if (count && game.settings.bonus !== "none") {
        const what = count > 1 ? `both ${bonusName(game.settings.bonus, count)}` : `the ${card}`;
        notes.push(`${named(game.players[i])} took ${what} (−${10 * count}).`);
      }
    });
    const main = h(
      "tr",
      { dataset: { round: round.index + 1 }, class: round.index === fixing ? "fixing" : null },
      h(
        "th",
        { scope: "row" },
        // The round's number takes the round back into the boxes to fix, whenever it was.
        h(
          "button",
          {
            type: "button",
            class: "round-fix",
            dataset: { action: "fix-round", round: round.index },
            "aria-label": `Fix round ${round.index + 1} (${PASS_SHORT[round.pass]})`,
          },
          h("span", { class: "delta" }, String(round.index + 1)),
          // Many columns: the pass as its arrow (the word is in the button's name).
          columns.length > 6
            ? h("span", { class: "running", title: PASS_SHORT[round.pass] }, PASS_ARROWS[round.pass])
            : h("span", { class: "running" }, PASS_SHORT[round.pass]),
        ),
      ),
      columns.map(({ seat }) => {
        const points = round.points[seat];
        const shot = round.entry.moon && teamOf(game, round.entry.moon.shooter)[0] === seat;
        return h(
          "td",
          { class: "num" },
          h("span", { class: "delta" }, shot ? `${signed(points)} ☾` : signed(points)),
          h("span", { class: "running" }, total(round.totals[seat])),
        );
      }),
    );
    if (!notes.length) return [main];
    const note = h("td", { colspan: columns.length + 1 }, h("span", {}, notes.join(" ")));
    return [main, h("tr", { class: "note" }, note)];
  });
  clear(
    root,
    h(
      "h2",
      { id: "history-title", class: "history-title" },
      "Rounds played",
      h(
        "span",
        { class: "hint" },
        " points scored, running total under each",
        // Paper has no buttons: the page says it, the print does not.
        h("span", { class: "screen-only" }, "; tap a round's number to fix it"),
      ),
    ),
    h(
      "div",
      { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "history-title" },
      h(
        "table",
        {
          class: `history${columns.length > 6 ? " many" : ""}`,
          dataset: { table: "history" },
          "aria-labelledby": "history-title",
        },
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Round and pass"), "#"),
            columns.map(({ name }) => h("th", { scope: "col" }, h("span", { class: "head-name" }, name)))),
        ),
        h("tbody", {}, rows),
        h(
          "tfoot",
          {},
          h("tr", {}, h("th", { scope: "row" }, "Total"),
            columns.map(({ seat }) => h("td", { class: "num" }, total(sum.totals[seat])))),
        ),
      ),
    ),
    h("p", { class: "scroll-cue hint", dataset: { scrollCue: "" }, hidden: true, "aria-hidden": "true" },
      "More columns to the side: swipe the table →"),
  );
  const wrap = root.querySelector(".table-wrap");
  showCue(wrap);
  cueWatcher?.observe(wrap);
}

/** Say so when the table is wider than its box (it scrolls sideways), and only then. */
function showCue(wrap) {
  const overflowing = wrap.scrollWidth > wrap.clientWidth + 1;
  wrap.classList.toggle("overflowing", overflowing);
  const cue = wrap.nextElementSibling;
  if (cue?.dataset.scrollCue !== undefined) cue.hidden = !overflowing;
}

// A turned phone or a resized window can make the table fit, or stop fitting.
const cueWatcher = "ResizeObserver" in window
  ? new ResizeObserver((entries) => entries.forEach((entry) => entry.target.isConnected && showCue(entry.target)))
  : null;
