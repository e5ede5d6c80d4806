// The replay page: /replay?game=ID replays a finished game, /replay?game=ID&round=N one
// finished round (of any game of this browser, also one still played). It shows the frames of
// GET /api/games/{id}/replay one at a time: every hand face up, the pass, each trick with its
// winner and points, and the round's score. The frames are the engine's events grouped by the
// server; this page only draws them and works out no rule of its own.

import { applyTheme } from "./theme.js";
import { foldingMenu } from "./menu.js";
import { nameWaysBack } from "./shown-game.js";
import { h, clear } from "./dom.js";
import { cardFace, cardName, cardSymbol, isRed, sortCards } from "./cards.js";
import { listed, named as isolated, plural, score, takersOf } from "./words.js";
import { statusWords } from "./api.js";

applyTheme();
foldingMenu();
nameWaysBack();
const root = document.querySelector("[data-region=replay]");
const heading = document.querySelector("[data-region=replay-title]");
const status = document.querySelector("[data-region=replay-status]");
const params = new URLSearchParams(location.search);

const PASSES = {
  left: "to the left", right: "to the right", across: "across", scatter: "one to each other player",
  partner: "to their partner",
};

const view = { replay: null, round: 0, frame: 0 };

// --- words -----------------------------------------------------------------------------------


/** A card as it is written, "K♠", said by its name ("king of spades"), not by its symbol. */
function cardWord(card) {
  return h("span", { class: `card-word${isRed(card) ? " red" : ""}`, "data-card": card, title: cardName(card) },
    h("span", { "aria-hidden": "true" }, cardSymbol(card)), h("span", { class: "sr" }, cardName(card)));
}

function cardWords(cards) {
  return sortCards(cards).flatMap((card, i) => (i ? [" ", cardWord(card)] : [cardWord(card)]));
}

/** "3♣ 9♦ K♠ to Marisol", or for a scatter each card with its player: "K♠ to Marisol,
 * 3♣ to Bertie and 9♦ to Tamsin". */
function passWords(passed) {
  if (!passed.each) return [...cardWords(passed.cards), ` to ${listed(passed.to.map(named))}`];
  return passed.each.flatMap(({ card, to }, i) => [
    i === 0 ? "" : i === passed.each.length - 1 ? " and " : ", ",
    cardWord(card), ` to ${named(to)}`]);
}

/** "3 points", "1 point", "−10 points" (a bonus card's trick): the minus sign as on a score sheet. */
const points = (n) => `${score(n)} ${Math.abs(n) === 1 ? "point" : "points"}`;

const nameOf = (seat) => isolated(view.replay.players[seat]?.name ?? `Seat ${seat + 1}`);
/** "Bertie", "Bertie and Oskar", "Bertie, Oskar and Dunstan" */
const names = (seats) => listed(seats.map(nameOf));
/** A seat's name in the middle of a sentence: "you" for the person. */
const named = (seat) => (you(seat) ? "you" : nameOf(seat));
const you = (seat) => Boolean(view.replay.players[seat]?.you);

function passLine(round) {
  if (!round.passes.length) return "A keep round: nobody passes, and everyone plays the cards dealt.";
  const count = round.passes[0].cards.length;
  return `Each player passes ${plural(count, "card")} ${PASSES[round.pass_direction] || round.pass_direction}: those outlined in dashes.`;
}

function caption(round, frame) {
  const tricks = round.frames.filter((f) => f.kind === "trick").length;
  if (frame.kind === "deal") {
    // Face down while the round was played; a replay shows every card from the deal.
    const kitty = round.kitty?.length
      ? [`The kitty, face down until a point card is first taken: `, ...cardWords(round.kitty), ". "]
      : [];
    return [`Round ${round.round}: the deal. `, ...kitty, passLine(round)];
  }
  if (frame.kind === "pass") {
    const leads = you(frame.leader) ? "You lead" : `${nameOf(frame.leader)} leads`;
    return ["The pass: what each player passed and received (outlined in gold). ", `${leads} the first trick.`];
  }
  if (frame.kind === "trick") {
    const trick = frame.trick;
    const led = trick.plays[0][1];
    const head = `Trick ${trick.number + 1} of ${tricks}: ${nameOf(trick.leader)} led the `;
    if (trick.held_over) {
      return [head, cardWord(led), ". Every card of the suit led cancelled: nobody takes this trick, ",
        "and its cards go to the winner of the next."];
    }
    const [, winning] = trick.plays.find(([seat]) => seat === trick.winner);
    const worth = trick.points ? points(trick.points) : "no points";
    return [head, cardWord(led), `; ${named(trick.winner)} took it with the `, cardWord(winning), ` (${worth}).`];
  }
  const last = view.replay.over && round.round === view.replay.rounds_finished;
  if (!last) return [`Round ${round.round} is over.`];
  // The end of the replay: a way on from it, where Next can go no further.
  return [`Round ${round.round} is over, and so is the game. `,
    h("a", { href: "/stats", "data-action": "replay-done" }, "Back to your games")];
}

/** One line for each event worth telling: what the engine reported besides the plays. */
function notes(round, frame) {
  const lines = [];
  for (const event of frame.events) {
    if (event.type === "hearts-broken") lines.push(["Hearts are broken."]);
    else if (event.type === "trick-won") {
      if (event.cancelled.length) lines.push(["Cancelled (the same card twice): ", ...cardWords(event.cancelled), "."]);
      if (event.carried.length) {
        lines.push([`${nameOf(event.winner)} also took the cards held over: `,
          ...cardWords(event.carried), "."]);
      }
    } else if (event.type === "kitty-taken") {
      lines.push([`${nameOf(event.seat)} took the kitty: `, ...cardWords(event.cards),
        ` (${points(event.points)}).`]);
    } else if (event.type === "moon-chosen") {
      lines.push([`${nameOf(event.seat)} chose to `,
        event.choice === "add" ? "add the moon's points to everyone else." : "take the moon's points off their own total."]);
    } else if (event.type === "round-scored") {
      const result = event.result;
      if (result.shooter !== null) {
        lines.push([`${nameOf(result.shooter)} shot the ${result.sun ? "sun" : "moon"}!`]);
      }
      // What the score table alone does not say: who took the bonus card, and who scored
      // together (a partner's "Scored" is the team's).
      const bonus = view.replay.rules.bonus_card;
      const tricks = round.frames.filter((f) => f.kind === "trick").map((f) => f.trick);
      const takers = bonus ? takersOf(tricks, bonus) : [];
      if (takers.length) {
        const off = view.replay.rules.bonus_points;
        lines.push([`${names(takers)} took the `, cardWord(bonus), `: ${off} points off.`]);
      }
      if (view.replay.teams?.length) {
        lines.push([`Partners score together: ${view.replay.teams.map(names).join("; ")}.`]);
      }
      if (result.reset.length) lines.push([`${names(result.reset)}: the total hit the target exactly and dropped back.`]);
    } else if (event.type === "game-over") {
      const winners = event.winners;
      const verb = winners.length > 1 || you(winners[0]) ? "win" : "wins";
      lines.push([`Game over: ${names(winners)} ${verb}.`]);
    }
  }
  return lines;
}

// --- the seats ---------------------------------------------------------------------------------

/** What a hand's outline says of a card, in words for a screen reader (the outline is seen). */
const MARKED = { passing: "passed", received: "received", played: "played" };

function mini(card, mark) {
  const marks = mark ? { [`data-${mark}`]: "true" } : {};
  const said = mark && MARKED[mark] ? `${cardName(card)}, ${MARKED[mark]}` : cardName(card);
  return h("li", { class: "mini-card", "data-card": card, title: said, ...marks },
    cardFace(card), h("span", { class: "sr" }, said));
}

/** A hand, sorted, its cards overlapping to fit the row; `marked` cards are outlined. */
function hand(cards, marked, mark) {
  const left = [...marked];
  const sorted = sortCards(cards);
  const list = h("ul", { class: "mini-hand", "data-region": "hand" });
  // Set through the style object: the page's policy allows no style attribute.
  list.style.setProperty("--rest", String(Math.max(sorted.length - 1, 1)));
  for (const card of sorted) {
    const at = left.indexOf(card);
    if (at >= 0) left.splice(at, 1); // one copy: two decks hold two of a card
    list.append(mini(card, at >= 0 ? mark : null));
  }
  if (!sorted.length) list.append(h("li", { class: "no-cards" }, "no cards left"));
  return list;
}

/** How much of a card's width its corner needs in sight, the index and pip (cards.js, cardFace:
 * "10" squeezed to 10 of the face's 60 units about x 6.5), and a unit to spare. */
const CORNER = 13 / 60;

/** Each hand in one row while every card's corner shows past the next card; in two rows when
 * it does not (a hand of many cards on a narrow phone). Measured, as the room is the page's. */
function fitHands() {
  for (const list of stage.querySelectorAll(".mini-hand")) {
    const cards = list.querySelectorAll(".mini-card");
    delete list.dataset.rows;
    list.style.setProperty("--rest", String(Math.max(cards.length - 1, 1)));
    if (cards.length < 2) continue;
    const width = cards[0].getBoundingClientRect().width;
    const step = (list.clientWidth - width) / (cards.length - 1);
    if (step >= width * CORNER) continue;
    list.dataset.rows = "2";
    list.style.setProperty("--rest", String(Math.max(Math.ceil(cards.length / 2) - 1, 1)));
  }
}

function seatRow(round, frame, seat) {
  const player = view.replay.players[seat];
  const trick = frame.kind === "trick" ? frame.trick : null;
  const play = trick?.plays.find(([who]) => who === seat);
  const took = trick && !trick.held_over && trick.winner === seat;
  const passed = round.passes.find((p) => p.seat === seat);
  const received = round.received.find((r) => r.seat === seat);
  const scoreLine = `total ${score(frame.totals[seat])}${frame.kind === "deal" ? "" : `, ${score(frame.taken[seat])} taken this round`}`;
  let cards = hand(frame.hands[seat], [], "none");
  if (frame.kind === "deal" && passed) cards = hand(frame.hands[seat], passed.cards, "passing");
  if (frame.kind === "pass" && received) cards = hand(frame.hands[seat], received.cards, "received");
  if (play) cards = hand(frame.hands[seat], [play[1]], "played");
  return h("li", { class: `seat-row${took ? " took" : ""}${player?.you ? " you" : ""}`, "data-seat": seat },
    h("div", { class: "who" },
      h("strong", {}, nameOf(seat)),
      player?.level ? h("span", { class: "level" }, player.level) : null,
      h("span", { class: "score", "data-region": "score" }, scoreLine)),
    play
      ? h("div", { class: "trick-card", "data-region": "played", "data-card": play[1], role: "img",
        // Said in words: the card's face is a picture, and "2." alone said nothing.
        "aria-label": trick.leader === seat
          ? `led the ${cardName(play[1])}`
          : `played the ${cardName(play[1])}, card ${trick.plays.indexOf(play) + 1} of the trick` },
        cardFace(play[1]),
        h("span", { class: "play-order", "aria-hidden": "true" },
          trick.leader === seat ? "led" : `${trick.plays.indexOf(play) + 1}.`))
      : null,
    took ? h("p", { class: "took-line", "data-region": "took" },
      `Took the trick${trick.points ? `: ${points(trick.points)}` : ""}`) : null,
    frame.kind === "pass" && passed
      ? h("p", { class: "pass-line", "data-region": "pass" }, "Passed ", ...passWords(passed),
        received ? ["; received ", ...cardWords(received.cards)] : null)
      : null,
    cards);
}

function scoreTable(round, frame) {
  const result = frame.result;
  const seats = view.replay.players.map((p) => p.seat);
  return h("table", { class: "summary", "data-region": "round-score" },
    h("thead", {}, h("tr", {}, ["", "Taken", "Scored", "Total"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, seats.map((seat) => h("tr", { "data-seat": seat },
      h("th", { scope: "row" }, nameOf(seat)), h("td", {}, score(result.points_taken[seat])),
      h("td", {}, score(result.scores[seat])), h("td", {}, score(result.totals[seat]))))));
}

// --- stepping ----------------------------------------------------------------------------------

const rounds = () => view.replay.rounds;
const current = () => rounds()[view.round];

function go(round, frame) {
  view.round = Math.max(0, Math.min(rounds().length - 1, round));
  const frames = current().frames;
  view.frame = frame === "last" ? frames.length - 1 : Math.max(0, Math.min(frames.length - 1, frame));
  draw();
}

function step(by) {
  const frames = current().frames;
  const next = view.frame + by;
  if (next >= frames.length && view.round + 1 < rounds().length) go(view.round + 1, 0);
  else if (next < 0 && view.round > 0) go(view.round - 1, "last");
  else go(view.round, next);
}

const atStart = () => view.round === 0 && view.frame === 0;
const atEnd = () => view.round === rounds().length - 1 && view.frame === current().frames.length - 1;

const controls = {};

function buildControls() {
  controls.picker = h("select", { "data-action": "round", "aria-label": "Round" },
    rounds().map((round, i) => h("option", { value: i }, `Round ${round.round}`)));
  controls.picker.addEventListener("change", () => go(Number(controls.picker.value), 0));
  controls.back = h("button", { type: "button", "data-action": "back", "aria-label": "Back one step", onclick: () => step(-1) },
    "◀", h("span", { class: "word" }, " Back"));
  controls.forward = h("button", { type: "button", class: "primary", "data-action": "forward", "aria-label": "Forward one step",
    onclick: () => step(1) }, h("span", { class: "word" }, "Next "), "▶");
  controls.position = h("span", { class: "position", "data-region": "position" });
  return h("nav", { class: "replay-controls", "aria-label": "Replay controls" },
    controls.picker, controls.back, controls.position, controls.forward);
}

// The caption is the one live region: a screen reader hears what happened at each step, not
// every card on the table again.
const captionLine = h("p", { class: "caption", "data-region": "caption", "aria-live": "polite" });
const stage = h("section", { class: "replay-stage", "data-region": "stage" });

function draw() {
  const round = current();
  const frame = round.frames[view.frame];
  const kinds = { deal: "the deal", pass: "the pass", trick: `trick ${frame.trick?.number + 1}`, scored: "the score" };
  controls.picker.value = String(view.round);
  // A button that goes dim under the focus hands it to the other one (the focus fell to the
  // page at the last step).
  const focused = document.activeElement;
  controls.back.disabled = atStart();
  controls.forward.disabled = atEnd();
  if (focused === controls.forward && atEnd() && !atStart()) controls.back.focus();
  if (focused === controls.back && atStart() && !atEnd()) controls.forward.focus();
  controls.position.textContent = `${view.frame + 1} / ${round.frames.length}: ${kinds[frame.kind]}`;
  root.dataset.round = String(round.round);
  root.dataset.frame = String(view.frame);
  root.dataset.kind = frame.kind;
  const order = view.replay.players.map((p) => p.seat);
  clear(captionLine, caption(round, frame));
  clear(stage,
    notes(round, frame).map((line) => h("p", { class: "note", "data-region": "note" }, line)),
    frame.kind === "scored" ? scoreTable(round, frame) : null,
    frame.kind === "scored" ? null : h("ol", { class: "seat-rows", "data-region": "seats" },
      order.map((seat) => seatRow(round, frame, seat))),
    frame.kind === "deal" && round.result.deal_key ? dealKey(round) : null);
  fitHands();
  const query = new URLSearchParams(params);
  query.set("step", `${round.round}.${view.frame}`);
  history.replaceState(null, "", `?${query}`);
}

function dealKey(round) {
  const query = new URLSearchParams({
    key: round.result.deal_key, round: String(round.hand_number), players: String(view.replay.rules.players),
    seat: String(view.replay.seat ?? 0),
  });
  return h("p", { class: "deal-check" }, "Dealt from the key ", h("code", {}, round.result.deal_key), ": ",
    h("a", { href: `/rules?${query}#check-a-deal`, "data-action": "check-deal" }, "check this deal"), ".");
}

function keys(event) {
  if (event.target instanceof HTMLSelectElement || event.altKey || event.ctrlKey || event.metaKey) return;
  const moves = {
    ArrowRight: () => step(1), ArrowLeft: () => step(-1),
    Home: () => go(view.round, 0), End: () => go(view.round, "last"),
    // A round on or back, at its deal; none past the last round or before the first.
    PageDown: () => view.round + 1 < rounds().length && go(view.round + 1, 0),
    PageUp: () => view.round > 0 && go(view.round - 1, 0),
  };
  if (moves[event.key]) {
    event.preventDefault();
    moves[event.key]();
  }
}

// --- loading -----------------------------------------------------------------------------------

function titleOf(replay) {
  const rules = replay.rules;
  const table = `${rules.players} players to ${rules.target_score}`;
  if (!replay.over) return `Round ${replay.rounds[0].round} of a game still played`;
  const winners = replay.winners;
  return `${table}: ${names(winners)} ${winners.length > 1 || you(winners[0]) ? "win" : "wins"}`;
}

async function show() {
  const id = params.get("game");
  const only = params.get("round");
  if (!id) {
    status.textContent = "Which game? Open a replay from the list of your games.";
    root.removeAttribute("aria-busy");
    return;
  }
  const query = only ? `?round=${encodeURIComponent(only)}` : "";
  let replay;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(id)}/replay${query}`, { credentials: "same-origin" });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(typeof body.detail === "string" ? body.detail : statusWords(response.status));
    replay = body;
  } catch (error) {
    clear(status, `This replay cannot be shown. ${error.message} `, h("a", { href: "/stats" }, "Your games"));
    root.removeAttribute("aria-busy");
    return;
  }
  view.replay = replay;
  heading.textContent = titleOf(replay);
  const whole = only && replay.over
    ? h("p", { class: "hint" }, h("a", { href: `/replay?game=${encodeURIComponent(id)}`, "data-action": "whole-game" },
      "Replay the whole game"))
    : null;
  status.replaceWith(h("p", { class: "hint", "data-region": "replay-help" },
    "Every hand face up. Step with the buttons or the arrow keys; pick a round to jump to it."));
  // The controls and the step's words stay at the top as the hands scroll under them: held
  // sideways a phone has room for one hand, and the words of the step went with the first.
  const bar = buildControls();
  const head = h("div", { class: "replay-head" }, bar, captionLine);
  root.append(whole || "", head, stage);
  // What scrolls into view (a seat, the focus) comes out below what stays at the top, not
  // under it (the controls alone on the narrowest phones, replay.css).
  const keptHeight = () => document.documentElement.style.setProperty("--replay-head",
    `${Math.ceil((getComputedStyle(head).display === "contents" ? bar : head).getBoundingClientRect().height)}px`);
  const watch = new ResizeObserver(keptHeight);
  watch.observe(head);
  watch.observe(bar);
  const [round, frame] = (params.get("step") || "").split(".").map(Number);
  const at = rounds().findIndex((r) => r.round === round);
  go(at >= 0 ? at : 0, Number.isInteger(frame) ? frame : 0);
  document.addEventListener("keydown", keys);
  addEventListener("resize", fitHands); // a phone turned: the rows' room changed
  root.removeAttribute("aria-busy");
  root.dataset.ready = "true";
}

show();
