// The "Your games" page: the statistics (GET /api/stats) and the finished games
// (GET /api/history) of this browser, each with its record to download and replay.

import { applyTheme } from "./theme.js";
import { foldingMenu } from "./menu.js";
import { nameWaysBack } from "./shown-game.js";
import { h, s, clear } from "./dom.js";
import { statusWords } from "./api.js";
import { houseRulesShort, named, queensTakenLabel, score } from "./words.js";

applyTheme();
foldingMenu();
nameWaysBack();
const root = document.querySelector("[data-region=stats]");
const status = document.querySelector("[data-region=stats-status]");

async function load(path) {
  const response = await fetch(path, { credentials: "same-origin" });
  if (!response.ok) {
    const answer = await response.json().catch(() => ({}));
    throw new Error(typeof answer.detail === "string" ? answer.detail : statusWords(response.status));
  }
  return response.json();
}

const percent = (rate) => (rate === null || rate === undefined ? "–" : `${Math.round(rate * 100)}%`);
const date = (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
/** The history's date: the day and the time each kept whole, so that a narrow column breaks
 * between them ("Dec 5, 2026, / 4:07 PM", not "Dec 5, / 2026, 4:07 / PM"). */
const finishedAt = (iso) => {
  const when = new Date(iso);
  const day = when.toLocaleDateString(undefined, { dateStyle: "medium" });
  const time = when.toLocaleTimeString(undefined, { timeStyle: "short" });
  return [h("span", { class: "day" }, `${day},`), " ", h("span", { class: "time" }, time)];
};
const place = (n) => `${n}${n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"}`;

/** A figure and its words, one item of the list (they read as one run of text). */
function tile(label, value, key) {
  return h("div", { class: "stat", role: "listitem", "data-stat": key }, h("span", { class: "stat-value" }, String(value)),
    h("span", { class: "stat-label" }, label));
}

function streakWords(streaks) {
  const now = streaks.current;
  if (!now) return "–";
  const kind = now.kind === "wins" ? (now.length === 1 ? "win" : "wins") : (now.length === 1 ? "loss" : "losses");
  return `${now.length} ${kind}`;
}

function tiles(stats) {
  return h("div", { class: "stat-tiles", role: "list", "aria-label": "Figures" },
    tile(stats.games === 1 ? "game finished" : "games finished", stats.games, "games"),
    tile("won", stats.wins, "wins"),
    tile("win rate", percent(stats.win_rate), "win_rate"),
    tile("points a round", stats.points_per_round ?? "–", "points_per_round"),
    tile("moons shot", stats.moons_shot, "moons_shot"),
    tile("moons against you", stats.moons_suffered, "moons_suffered"),
    tile(queensTakenLabel(stats.queens_taken), stats.queens_taken, "queens_taken"),
    tile("current run", streakWords(stats.streaks), "streak"),
    tile("longest winning run", stats.streaks.longest_wins, "longest_wins"),
    stats.take_backs?.games ? tile("games with take-backs", stats.take_backs.games, "take_backs") : null,
    stats.take_backs?.games ? tile("win rate without them", percent(stats.clean.win_rate), "clean_win_rate") : null);
}

/** Win rate by level: a bar for each, its length the share of games won. */
/** Games, wins and the win rate against each level, the rate drawn as a bar in its cell (a
 * chart above the table said the same figures twice). */
function levelTable(byLevel) {
  const rateBar = (rate) => s("svg", { class: "rate-bar", viewBox: "0 0 100 10", preserveAspectRatio: "none",
    "aria-hidden": "true" },
  s("rect", { width: 100, height: 10, rx: 3, class: "bar-back" }),
  s("rect", { width: Math.max(2, 100 * rate), height: 10, rx: 3, class: "bar" }));
  return h("table", { class: "summary", "data-region": "by-level" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Opponents"), h("th", { scope: "col" }, "Games"),
      h("th", { scope: "col" }, "Won"), h("th", { scope: "col", class: "rate" }, "Win rate"))),
    h("tbody", {}, Object.entries(byLevel).map(([name, v]) => h("tr", { "data-level": name },
      h("th", { scope: "row" }, name), h("td", {}, v.games), h("td", {}, v.wins),
      h("td", { class: "rate" }, rateBar(v.win_rate), h("span", {}, percent(v.win_rate)))))));
}

/** "Best game: you came 2nd with 31 points, 4 more than the winner. Finished …": how the
 * game went, then the margin that ranks it (a game to 50 and one to 100 compare), against
 * the best of the others: the winner when the person lost, the runner-up when they won
 * ("the best rival" left a person to work out which). */
function gameWords(line, label, region) {
  if (!line) return null;
  const how = line.won ? "won" : `came ${place(line.place)}`;
  const points = `${score(line.score)} ${Math.abs(line.score) === 1 ? "point" : "points"}`;
  const margin = line.margin === 0 ? "level with the best of the others"
    : line.margin < 0 ? `${-line.margin} fewer than the runner-up`
      : `${line.margin} more than the winner`;
  return h("p", { "data-region": region }, h("strong", {}, `${label}: `),
    `you ${how} with ${points}, ${margin}. Finished ${date(line.finished)}.`);
}

/** The best game and the worst; one game counted is both, and said once. */
function bestAndWorst(stats) {
  if (stats.best_game?.id === stats.worst_game?.id) {
    return [h("h2", {}, "Your finished game"),
      gameWords(stats.best_game, "Your one game so far", "only-game"),
      h("p", { class: "hint" }, "Your best and worst games show here once you have finished two.")];
  }
  return [h("h2", {}, "Best and worst"),
    h("p", { class: "hint", "data-region": "best-worst-how" },
      "Ranked by how far you finished from the best of the others, so games of any length compare."),
    gameWords(stats.best_game, "Best game", "best-game"),
    gameWords(stats.worst_game, "Worst game", "worst-game")];
}

/** The finished games, a table of four columns; on a phone each game is a block of lines
 * (replay.css), too narrow for four columns side by side (a date in three lines, "2 / points,
 * / 1 round"). Its roles are written out, so that laid out as blocks it is still a table
 * with its headings to a screen reader. */
function historyTable(history) {
  return h("table", { class: "summary history", "data-region": "history", role: "table", "aria-labelledby": "history-title" },
    h("thead", { role: "rowgroup" }, h("tr", { role: "row" },
      ["Finished", "Table", "Result", "Game"].map((t) => h("th", { scope: "col", role: "columnheader" }, t)))),
    h("tbody", { role: "rowgroup" }, history.map((line) => {
      if (line.damaged) {
        return h("tr", { "data-game": line.id, "data-damaged": "true", role: "row" },
          h("th", { scope: "row", role: "rowheader", class: "when" }, finishedAt(line.finished)),
          h("td", { colspan: 3, role: "cell" },
            "This game's record is damaged: it cannot be shown or replayed."));
      }
      const r = line.result;
      const rules = line.rules;
      const listing = (players) => players.map((o) => `${named(o.name)}${o.level ? ` (${o.level})` : ""}`).join(", ");
      const partners = line.opponents.filter((o) => o.partner);
      const opponents = partners.length
        ? `with ${listing(partners)} against ${listing(line.opponents.filter((o) => !o.partner))}`
        : listing(line.opponents);
      // A house rule or two by name ("Partners"); more as a count.
      const ruleNames = rules.house_rule_names || [];
      const extra = ruleNames.length ? `, ${houseRulesShort(ruleNames)}` : "";
      return h("tr", { "data-game": line.id, role: "row" },
        h("th", { scope: "row", role: "rowheader", class: "when" }, finishedAt(line.finished)),
        h("td", { role: "cell", class: "table-cell" }, `${rules.players} players to ${rules.target_score}`,
          extra, h("br"),
          h("span", { class: "opponents" }, opponents)),
        // A line each on a desktop; on a phone one line, a space between (the line breaks unseen).
        h("td", { role: "cell", class: "result" }, [
          h("span", { class: "place" }, r.won ? "Won" : place(r.place)),
          h("span", { class: "opponents" }, `${score(r.score)} points, ${r.rounds} round${r.rounds === 1 ? "" : "s"}`),
          line.undos ? h("span", { class: "undo-mark", "data-undos": line.undos }, `${line.undos} take-back${line.undos === 1 ? "" : "s"}`) : null,
          // The coach's hints taken at a table of friends (the game's end said them too): short
          // to the eye, as a phone's narrow column needs, and whole to a screen reader.
          line.hints ? h("span", { class: "hint-mark", "data-hints": line.hints },
            `${line.hints} hint${line.hints === 1 ? "" : "s"}`, h("span", { class: "sr" }, " from the coach")) : null,
        ].filter(Boolean).flatMap((part, i) => (i ? [" ", h("br"), part] : [part]))),
        // Each link named with its game to a screen reader (a list of links read "Replay,
        // Download, Replay, Download"), its visible word first.
        h("td", { class: "game-links", role: "cell" }, replayLink(line), h("br"),
          h("a", { href: `/api/games/${encodeURIComponent(line.id)}/record`, download: `hearts-${line.id}.json`,
            "data-action": "record", "aria-label": `Download the record of the game of ${date(line.finished)}` },
          "Download")));
    })));
}

// --- replay and reset (issue 17): each game opens trick by trick; the statistics start afresh

function replayLink(line) {
  return h("a", { href: `/replay?game=${encodeURIComponent(line.id)}`, "data-action": "replay",
    "aria-label": `Replay the game of ${date(line.finished)}` }, "Replay");
}

const NOTHING_DELETED = "Your finished games stay in the list below, each with its record and replay: nothing is deleted.";

function sinceLine(stats) {
  if (!stats.since) return null;
  return h("p", { class: "stats-since", "data-region": "stats-since", role: "status" },
    `Counted from ${date(stats.since)}, when they were last reset; the games before stay listed below.`);
}

/** The reset button, then its confirmation in place of it: a second, deliberate tap. */
function resetSection(onReset) {
  const section = h("section", { class: "stats-reset", "data-region": "stats-reset", "aria-labelledby": "reset-title" },
    h("h2", { id: "reset-title" }, "Start the statistics afresh"));
  const message = h("p", { "data-region": "reset-message", role: "status" });
  // The question is a group named by its words, and the safe answer has the focus: focus
  // fell to the page, so the next Tab and Enter reset them unasked. Escape keeps them.
  const ask = () => {
    const keep = h("button", { type: "button", "data-action": "cancel-reset", onclick: () => idle(true) }, "Keep them");
    clear(body,
      h("div", { role: "group", "aria-labelledby": "reset-question", "aria-describedby": "reset-detail",
        onkeydown: (event) => { if (event.key === "Escape") idle(true); } },
      h("p", { "data-region": "reset-confirm" }, h("strong", { id: "reset-question" }, "Reset the statistics from now? "),
        h("span", { id: "reset-detail" }, NOTHING_DELETED)),
      h("div", { class: "row" },
        h("button", { type: "button", class: "danger", "data-action": "confirm-reset", onclick: confirm }, "Yes, reset them"),
        keep)));
    keep.focus();
  };
  const idle = (focus = false) => {
    const button = h("button", { type: "button", "data-action": "reset-stats", onclick: ask }, "Reset statistics…");
    clear(body,
      h("p", {}, `A reset makes the figures above count from zero again, from now on. ${NOTHING_DELETED}`),
      button, message);
    if (focus) button.focus();
  };
  async function confirm() {
    body.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    try {
      const response = await fetch("/api/stats/reset", { method: "POST", credentials: "same-origin",
        headers: { "content-type": "application/json" }, body: JSON.stringify({ confirm: true }) });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(answer.detail || statusWords(response.status));
      onReset(answer);
    } catch (error) {
      idle(true);
      message.textContent = `The statistics were not reset: ${error.message}`;
    }
  }
  const body = h("div", {});
  idle();
  section.append(body);
  return section;
}

function render(stats, history) {
  if (!stats.games && !history.length) {
    return h("div", { "data-region": "stats-body" }, h("p", { "data-region": "stats-status" },
      "No finished games in this browser yet. Play one to the end and it shows here. ",
      h("a", { href: "/#play" }, "Play a game")));
  }
  const rerender = (fresh) => {
    const next = render(fresh, history);
    shown.replaceWith(next);
    // The figures were drawn anew: the focus goes to the line that says since when they
    // count (it fell to the page, and nothing was said).
    const since = next.querySelector("[data-region=stats-since]");
    if (since) {
      since.tabIndex = -1;
      since.focus();
    }
  };
  const shown = h("div", { "data-region": "stats-body" },
    sinceLine(stats),
    stats.unreadable ? h("p", { class: "hint", "data-region": "unreadable" },
      `${stats.unreadable === 1 ? "One finished game has a damaged record and is" : `${stats.unreadable} finished games have damaged records and are`}`
      + " left out of these figures.") : null,
    tiles(stats),
    stats.games ? [
      h("h2", {}, "Against each level"),
      levelTable(stats.by_level),
      bestAndWorst(stats),
    ] : h("p", { "data-region": "no-stats" }, "No game has finished since the statistics were reset."),
    resetSection(rerender),
    h("h2", { id: "history-title" }, `Finished games (${history.length}${history.length < stats.games ? ` latest of ${stats.games}` : ""})`),
    historyTable(history),
    // For players first; the terminal command after, small (most players never open one).
    h("p", { "data-region": "history-help" },
      "Replay shows a game trick by trick with every hand face up. Download keeps its record as a file."),
    h("p", { class: "hint" }, "The terminal game replays a downloaded record too: ",
      h("code", {}, "hearts replay hearts-….json"), "."));
  return shown;
}

async function show() {
  let stats;
  let history;
  try {
    [stats, history] = await Promise.all([load("/api/stats"), load("/api/history")]);
  } catch (error) {
    status.textContent = `The games could not be loaded: ${error.message}`;
    root.removeAttribute("aria-busy");
    return;
  }
  status.replaceWith(render(stats, history));
  root.removeAttribute("aria-busy");
  root.dataset.ready = "true";
}

show();
