// The scorekeeper's rules: settings, checking a round, scoring it, and the state of the game.
// Pure functions over plain objects (no DOM, no storage), so every screen reads the same facts.

// The game's own limits: the scorekeeper works offline and cannot ask the server, so these
// are written out here, and a test holds them to the server's (hearts.rules MIN_PLAYERS and
// MAX_PLAYERS, hearts.web.api TARGET_RANGE and NAME_LENGTH).
export const MIN_PLAYERS = 3;
export const MAX_PLAYERS = 10;
export const MAX_NAME = 24;
export const MIN_TARGET = 1;
export const MAX_TARGET = 1000;
/** Partnership Hearts: four players, partners sitting across (seats 1 and 3, 2 and 4). */
export const PARTNERSHIP_PLAYERS = 4;

export const MOON_RULES = {
  add: "Everyone else gets 26",
  subtract: "The shooter takes 26 off",
  choose: "The shooter chooses",
  "add-unless-losing": "Everyone else gets 26, unless that ends the game with someone else winning",
};

export const BONUS_CARDS = {
  none: "No bonus card",
  jack: "Jack of diamonds, −10",
  ten: "Ten of diamonds, −10",
};

/** What landing exactly on the target does, as the game and the rule sheet have it. */
export const EXACT_TARGET = {
  none: "No change",
  fifty: "Drops back to 50",
  zero: "Drops back to 0",
};
/** Every choice a saved game may hold: games kept before the scorekeeper took the game's
 * "back to 50" dropped to half the target, and still do. */
export const EXACT_CHOICES = { ...EXACT_TARGET, half: "Drops back to half" };
/** "Back to 50" needs a game to more than 50, as in the game. */
export const EXACT_FIFTY = 50;

export const TIES = {
  share: "They share the win",
  "play-on": "Play on until one is lowest",
};

const LEFT_RIGHT = ["left", "right"];
const ACROSS = [...LEFT_RIGHT, "across"];

/** Each passing choice's cycle at a table of `n`. The names keep what they meant in games
 * already saved: "standard" and "no-hold" go across at four players only; "across",
 * "across-no-hold" and "scatter" go across at any even table. (The printed sheets take the
 * same names: `hearts.sheets.table_rules`, and a test holds the two together.) */
const CYCLES = {
  standard: (n) => (n === 4 ? [...ACROSS, "hold"] : [...LEFT_RIGHT, "hold"]),
  "no-hold": (n) => (n === 4 ? ACROSS : LEFT_RIGHT),
  across: () => [...ACROSS, "hold"],
  "across-no-hold": () => ACROSS,
  scatter: () => [...ACROSS, "scatter"],
};

export const PASS_WORDS = {
  left: "pass left",
  right: "pass right",
  across: "pass across",
  hold: "a keep round: nobody passes",
  scatter: "scatter (one card to each other player)",
  none: "no passing",
};

export const PASS_SHORT = {
  left: "Left",
  right: "Right",
  across: "Across",
  hold: "Keep",
  scatter: "Scatter",
  none: "Keep",
};

export const PASS_ARROWS = { left: "←", right: "→", across: "↑", hold: "•", scatter: "✱", none: "–" };

/** One deck for 3 to 5 players, two (Cancellation Hearts) for 6 to 10. */
export function decksFor(playerCount) {
  return playerCount <= 5 ? 1 : 2;
}

/** The points in one round: 26 a deck. */
export function pointsPerRound(playerCount) {
  return 26 * decksFor(playerCount);
}

/** The passing choices that fit a number of players: [{value, label}], default first. */
export function passingOptions(playerCount) {
  if (playerCount === 4) {
    return [
      { value: "standard", label: "Left, right, across, keep" },
      { value: "no-hold", label: "Left, right, across (no keep)" },
      { value: "scatter", label: "Left, right, across, one card to each" },
      { value: "none", label: "Never pass" },
    ];
  }
  if (playerCount <= 5) {
    return [
      { value: "standard", label: "Left, right, keep" },
      { value: "no-hold", label: "Left, right (no keep)" },
      { value: "none", label: "Never pass" },
    ];
  }
  // Two decks: across and the scatter only where someone sits across, at an even table.
  const across = [
    { value: "across", label: "Left, right, across, keep" },
    { value: "across-no-hold", label: "Left, right, across (no keep)" },
    { value: "scatter", label: "Left, right, across, one card to each" },
  ];
  return [
    { value: "none", label: "Never pass (usual with two decks)" },
    { value: "standard", label: "Left, right, keep" },
    ...(playerCount % 2 === 0 ? across : []),
  ];
}

export function defaultSettings(playerCount = 4) {
  return {
    moonRule: "add",
    target: 100,
    bonus: "none",
    passing: passingOptions(playerCount)[0].value,
    exact: "none",
    tie: "share",
    partnership: false,
    sun: false,
  };
}

/**
 * The query of the printed sheets for a game of `playerCount` with `settings`, in the words
 * the sheets take (hearts.web.sheets_routes): the table, its passing, and the rules it plays
 * by, so the rule sheet tells them and the score sheet fills them in. A rule at the standard
 * game's is left out to keep the link short (the sheets print the standard one for it).
 * Rules that do not hold together yet (a target being typed) leave the table's sheet alone.
 */
export function sheetQuery(playerCount, settings) {
  const params = new URLSearchParams({ players: String(playerCount), passing: settings.passing });
  const target = Number(settings.target);
  const holds =
    Number.isInteger(target) && target >= MIN_TARGET && target <= MAX_TARGET &&
    !(settings.exact === "fifty" && target <= EXACT_FIFTY) &&
    !(settings.partnership && playerCount !== PARTNERSHIP_PLAYERS);
  if (!holds) return params.toString();
  params.set("target", String(target));
  params.set("moon", settings.moonRule);
  if (settings.bonus !== "none") params.set("bonus", settings.bonus);
  if (settings.exact !== "none") params.set("exact", settings.exact);
  if ((settings.tie ?? "share") !== "share") params.set("tie", settings.tie);
  if (settings.sun) params.set("sun", "yes");
  if (settings.partnership) params.set("partnership", "yes");
  return params.toString();
}

/** The longest name the score sheet takes, in code points (hearts.sheets.MAX_NAME_CHARS). */
export const MAX_SHEET_NAME = 64;
/** What the score sheet refuses in a name: controls, invisible format characters, separators,
 * private-use, surrogate and unassigned code points (hearts.sheets.HIDDEN_CATEGORIES). */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\p{Cn}]/u;

/**
 * The players' names for the score sheet's link, "&name=Ana&name=Ben...", a name a seat so
 * that each heads its column. A name the sheet would refuse (too long, or with a character
 * that prints nothing) goes as "", its column left to be written in: the link still opens.
 */
export function sheetNames(names) {
  const params = new URLSearchParams();
  for (const name of names) {
    const fits = [...name].length <= MAX_SHEET_NAME && !HIDDEN.test(name);
    params.append("name", fits ? name : "");
  }
  const query = params.toString();
  return query ? `&${query}` : "";
}

export function passCycle(playerCount, passing) {
  if (passing === "none") return [];
  return (CYCLES[passing] ?? CYCLES.standard)(playerCount);
}

/** The pass direction of round `index` (0 is the first round). */
export function passFor(game, index) {
  const cycle = passCycle(game.players.length, game.settings.passing);
  return cycle.length ? cycle[index % cycle.length] : "none";
}

/** "jack of diamonds", or for more than one "jacks of diamonds" (never "diamondss"). */
export function bonusName(bonus, count = 1) {
  const face = bonus === "ten" ? "ten" : "jack";
  return `${face}${count > 1 ? "s" : ""} of diamonds`;
}

/** An Error that names the player whose box is wrong (`error.player`), so the page can mark it
 * (a wrong target names its box as `error.field`). */
function fieldError(message, player) {
  return Object.assign(new Error(message), { player });
}

/** The characters a person sees in `text`: a family emoji is one, not the seven code points
 * (people and invisible joiners) it is made of. */
export function letterCount(text) {
  if (typeof Intl !== "undefined" && Intl.Segmenter) return [...new Intl.Segmenter().segment(text)].length;
  return [...text].length;
}

/** Whether `value` is one of `choices`' own keys: a saved "toString" is not a moon rule. */
function isChoice(choices, value) {
  return typeof value === "string" && Object.hasOwn(choices, value);
}

/** A new game from names and settings, or an Error whose message says what to fix. */
export function newGame(names, settings) {
  const players = names.map((name) => String(name ?? "").trim());
  if (players.length < MIN_PLAYERS || players.length > MAX_PLAYERS) {
    throw new Error(`Hearts needs ${MIN_PLAYERS} to ${MAX_PLAYERS} players; you have ${players.length}.`);
  }
  const blank = players.findIndex((name) => name === "");
  if (blank >= 0) throw fieldError(`Player ${blank + 1} needs a name.`, blank);
  const long = players.findIndex((name) => letterCount(name) > MAX_NAME);
  if (long >= 0) {
    throw fieldError(
      `Player ${long + 1}'s name is ${letterCount(players[long])} letters long; keep names to ${MAX_NAME}.`,
      long,
    );
  }
  const seen = new Map();
  players.forEach((name, i) => {
    const key = name.toLocaleLowerCase();
    if (seen.has(key)) throw fieldError(`Two players are called "${named(name)}"; give each a different name.`, i);
    seen.set(key, true);
  });
  const target = Number(settings.target);
  if (!Number.isInteger(target) || target < MIN_TARGET || target > MAX_TARGET) {
    throw Object.assign(
      new Error(`The target score must be a whole number from ${MIN_TARGET} to ${MAX_TARGET}.`),
      { field: "target" },
    );
  }
  if (!isChoice(MOON_RULES, settings.moonRule)) throw new Error("Choose how a moon is scored.");
  if (!isChoice(BONUS_CARDS, settings.bonus)) throw new Error("Choose a bonus card, or none.");
  if (!isChoice(EXACT_CHOICES, settings.exact)) throw new Error("Choose what landing on the target does.");
  if (settings.exact === "fifty" && target <= EXACT_FIFTY) {
    throw Object.assign(
      new Error(`Dropping back to ${EXACT_FIFTY} needs a game to more than ${EXACT_FIFTY}: choose another target, or 0.`),
      { field: "target" },
    );
  }
  const tie = settings.tie ?? "share";
  if (!isChoice(TIES, tie)) throw new Error("Choose what a tie for the lowest total does.");
  const passing = passingOptions(players.length).some((o) => o.value === settings.passing)
    ? settings.passing
    : passingOptions(players.length)[0].value;
  // Games saved before partnership and the sun existed have neither field: both off.
  const partnership = settings.partnership ?? false;
  const sun = settings.sun ?? false;
  if (typeof partnership !== "boolean" || typeof sun !== "boolean") throw new Error("Partnership and the sun are on or off.");
  if (partnership && players.length !== PARTNERSHIP_PLAYERS) {
    throw new Error(`Partnership Hearts is for ${PARTNERSHIP_PLAYERS} players, two teams of two; you have ${players.length}.`);
  }
  return {
    version: 1,
    players,
    settings: { moonRule: settings.moonRule, target, bonus: settings.bonus, passing, exact: settings.exact, tie, partnership, sun },
    rounds: [],
  };
}

/** An empty round entry for a game. */
export function emptyEntry(game) {
  const n = game.players.length;
  return { points: Array(n).fill(""), bonus: Array(n).fill(0), moon: null };
}

/**
 * True when `entry` has the shape of a round's boxes for `game`: a point (as typed) and a
 * count of bonus cards per player, and no moon or one whose shooter and choice could be
 * picked. Saved boxes are read back only when they do.
 */
export function entryFits(game, entry) {
  const n = game.players.length;
  const seat = (i) => Number.isInteger(i) && i >= 0 && i < n;
  const moon = entry?.moon;
  return (
    Array.isArray(entry?.points) &&
    entry.points.length === n &&
    entry.points.every((p) => typeof p === "string") &&
    Array.isArray(entry.bonus) &&
    entry.bonus.length === n &&
    entry.bonus.every((b) => Number.isInteger(b) && b >= 0 && b <= decksFor(n)) &&
    (moon === null ||
      moon === undefined ||
      (typeof moon === "object" &&
        (moon.shooter === null || seat(moon.shooter)) &&
        [null, undefined, "add", "subtract"].includes(moon.choice) &&
        [undefined, true, false].includes(moon.sun)))
  );
}

/**
 * The bonus-card marks once `seat`'s button is tapped: one more copy while one is unmarked,
 * else none. With one deck the card moves to `seat` from whoever had it marked, so a round
 * never holds more marks than there are copies in play (each seat went 0, 1, 2 before).
 */
export function tapBonus(bonus, seat, decks) {
  const next = [...bonus];
  if (decks === 1) {
    const had = next[seat] > 0;
    next.fill(0);
    next[seat] = had ? 0 : 1;
    return next;
  }
  const others = sumOf(next) - next[seat];
  next[seat] = next[seat] < decks - others ? next[seat] + 1 : 0;
  return next;
}

/** Whether `seat`'s button has anything to do: not with two decks once every copy is marked at other seats. */
export function bonusOffered(bonus, seat, decks) {
  return decks === 1 || bonus[seat] > 0 || sumOf(bonus) < decks;
}

/** True when an entry holds nothing typed or marked: no points, no bonus card, no moon. */
export function isBlankEntry(entry) {
  if (!entry) return true;
  return !entry.moon && !(entry.points ?? []).some((p) => String(p).trim() !== "") && !(entry.bonus ?? []).some(Boolean);
}

/** Parse one points field: "" counts as 0; "−5" (a real minus sign) is -5. Returns a number or NaN. */
export function parsePoints(text) {
  const clean = String(text ?? "").trim().replace("−", "-");
  if (clean === "") return 0;
  if (!/^[+-]?\d+$/.test(clean)) return NaN;
  return Number(clean);
}

function sumOf(values) {
  return values.reduce((a, b) => a + b, 0);
}

/**
 * A moon typed as its result rather than as points taken (0/26/26/26, or −26 and zeros):
 * the shooter's seat, or null.
 */
function moonTypedAsResult(game, values) {
  const amounts = [pointsPerRound(game.players.length)];
  if (game.settings.sun) amounts.push(2 * amounts[0]);
  for (const lead of teamLeads(game)) {
    const team = teamOf(game, lead);
    for (const amount of amounts) {
      const added = values.every((v, i) => v === (team.includes(i) ? 0 : amount));
      const taken = values.every((v, i) => v === (team.includes(i) ? -amount : 0));
      if (added || taken) return lead;
    }
  }
  return null;
}

/**
 * Check a round entry. Returns {ok, message, sum, expected, player}; message is one plain
 * sentence saying what is wrong (or, when ok, what will be scored); player is the seat whose
 * box is wrong, when one is. `saved` for a round read back from storage: a sun with the bonus
 * card marked outside the shooter's team is kept as it was added, before that was refused.
 */
export function checkRound(game, entry, { saved = false } = {}) {
  const n = game.players.length;
  const decks = decksFor(n);
  const expected = 26 * decks;
  const names = game.players;
  const bonusOn = game.settings.bonus !== "none";
  const card = bonusName(game.settings.bonus);
  const cards = bonusName(game.settings.bonus, decks);
  // `asks`: the message is the next question, not a mistake ("Pick who shot the moon.").
  const result = (ok, message, sum = 0, asks = false) => ({ ok, message, sum, expected, asks });

  if (game.rounds.length && isOver(game)) return result(false, "The game is over. Undo the last round or start a new game.");

  const bonusProblem = () => {
    if (!bonusOn) return null;
    const marked = sumOf(entry.bonus);
    if (entry.bonus.some((b) => !Number.isInteger(b) || b < 0 || b > decks)) {
      return `A player can take at most ${decks} ${cards}.`;
    }
    if (marked < decks) {
      return decks === 1
        ? `Mark who took the ${card} (its button beside their name).`
        : `Mark who took both ${cards}: ${marked} of ${decks} marked so far.`;
    }
    if (marked > decks) {
      const what = decks === 1 ? `one ${card} is` : `two ${cards} are`;
      return `Only ${what} in play, but ${marked} are marked.`;
    }
    return null;
  };

  if (entry.moon) {
    const shooter = entry.moon.shooter;
    if (!Number.isInteger(shooter) || shooter < 0 || shooter >= n) {
      const ask = game.settings.partnership ? "Pick the team that shot the moon." : "Pick who shot the moon.";
      return result(false, ask, 0, true);
    }
    const amount = moonAmount(game, entry.moon.sun);
    if (game.settings.moonRule === "choose" && !["add", "subtract"].includes(entry.moon.choice)) {
      return result(false, `Pick what ${teamWords(game, shooter)} ${game.settings.partnership ? "choose" : "chooses"}: ${amount} to everyone else, or ${amount} off.`);
    }
    const problem = bonusProblem();
    if (problem) return result(false, problem, expected);
    // A sun is every trick, so every bonus card is in the shooter's tricks (or the team's).
    // A saved round keeps its card where it was marked: it was added before this was asked.
    const team = teamOf(game, shooter);
    const elsewhere = entry.bonus.findIndex((b, i) => b > 0 && !team.includes(i));
    if (amount > expected && bonusOn && elsewhere >= 0 && !saved) {
      const which = decks > 1 ? `both ${cards} are` : `the ${card} is`;
      const pair = game.settings.partnership;
      const owner = pair ? "the team's" : `${named(names[shooter])}'s`;
      const beside = team.map((i) => named(names[i])).join(" or ");
      const mark = `mark ${decks > 1 ? "them" : "it"} beside ${beside}`;
      return result(
        false,
        `A sun takes every trick, so ${which} ${owner}, not ${named(names[elsewhere])}'s: ${mark}, or untick the sun.`,
        expected,
      );
    }
    return result(true, `${teamWords(game, shooter)} shot the ${amount > expected ? "sun" : "moon"}.`, expected);
  }

  const values = entry.points.map(parsePoints);
  if (!values.some(Number.isNaN)) {
    const shooter = moonTypedAsResult(game, values);
    if (shooter !== null) {
      return result(
        false,
        `That is a moon's result, not the points taken: if ${teamWords(game, shooter)} shot the moon, press "Shot the moon" and pick ${game.settings.partnership ? "the team" : named(names[shooter])}.`,
        sumOf(values),
      );
    }
  }
  for (let i = 0; i < n; i += 1) {
    const v = values[i];
    if (Number.isNaN(v) || v < 0 || v > expected) {
      const hint = bonusOn && v < 0 ? ` Mark the ${card} with its button; type only hearts and queens here.` : "";
      return { ...result(false, `${named(names[i])}'s points must be a whole number from 0 to ${expected}.${hint}`), player: i };
    }
  }
  const sum = sumOf(values);
  const withBonus = bonusOn ? ` (${sum - 10 * decks} after the ${decks > 1 ? cards : card})` : "";
  if (sum !== expected) {
    const missing = sum < expected ? `${expected - sum} missing` : `${sum - expected} too many`;
    return result(false, `These add up to ${sum}; a round holds ${expected} (${missing}).`, sum);
  }
  const all = teamLeads(game).find((lead) => teamOf(game, lead).reduce((t, i) => t + values[i], 0) === expected);
  if (all !== undefined) {
    const between = teamOf(game, all).length > 1 ? " between them" : "";
    return result(
      false,
      `${teamWords(game, all)} took all ${expected} points${between}: that is shooting the moon. Use “Shot the moon” to score it.`,
      sum,
    );
  }
  // Whoever took a queen of spades has 13 or more (26 for both): points that leave the
  // queens nowhere to be are a slip of the pen, however well they add up.
  const queens = values.reduce((q, v) => q + Math.min(decks, Math.floor(v / 13)), 0);
  if (queens < decks) {
    return result(false, decks === 1
      ? `These add up to ${expected}, but nobody has 13 or more: whoever took the queen of spades has at least 13.`
      : `These add up to ${expected}, but the two queens of spades (13 each) are not there: one player needs 26 or more, or two need 13 or more.`,
    sum);
  }
  const problem = bonusProblem();
  if (problem) return result(false, `These add up to ${expected}. ${problem}`, sum);
  return result(true, `These add up to ${expected}${withBonus}.`, sum);
}

function dropBack(totals, settings) {
  if (settings.exact === "none") return totals.map((t) => ({ total: t, dropped: false }));
  const to = { fifty: EXACT_FIFTY, half: Math.floor(settings.target / 2) }[settings.exact] ?? 0;
  return totals.map((t) => (t === settings.target ? { total: to, dropped: true } : { total: t, dropped: false }));
}

function lowest(totals) {
  const min = Math.min(...totals);
  return totals.flatMap((t, i) => (t === min ? [i] : []));
}

/** The seats that score together with `seat`: partners sit across (four players), or the seat alone. */
export function teamOf(game, seat) {
  return game.settings.partnership ? [seat % 2, (seat % 2) + 2] : [seat];
}

/** Each team's first seat: 0 and 1 in partnership, every seat otherwise. */
export function teamLeads(game) {
  return game.settings.partnership ? [0, 1] : game.players.map((_, i) => i);
}

/** "Ana", or "Ana and Cy" for a partnership team: for a box that holds the name alone. */
export function teamName(game, seat) {
  return joinNames(teamOf(game, seat).map((i) => game.players[i]));
}

/** The team's name in a sentence: each player's name set apart (`named`). */
export function teamWords(game, seat) {
  return joinNames(teamOf(game, seat).map((i) => named(game.players[i])));
}

/**
 * Does the game end with these totals? Someone has reached the target, and either ties are
 * shared or one team alone has the lowest total.
 */
export function gameEnds(game, totals) {
  if (!totals.some((t) => t >= game.settings.target)) return false;
  if (game.settings.tie !== "play-on") return true;
  return new Set(lowest(totals).map((i) => teamOf(game, i)[0])).size === 1;
}

/** What a moon counts: 26 a deck, doubled for a sun when the sun is played. */
export function moonAmount(game, sun) {
  return pointsPerRound(game.players.length) * (sun && game.settings.sun ? 2 : 1);
}

function bonusScores(game, entry) {
  return entry.bonus.map((b) => (game.settings.bonus === "none" ? 0 : -10 * b));
}

/** Per seat, the team's sum of `values`. */
function teamSums(game, values) {
  return values.map((_, i) => teamOf(game, i).reduce((sum, j) => sum + values[j], 0));
}

/** The two ways a moon can be scored: each {scores, totals} against the totals before it. */
function moonOptions(game, before, entry) {
  const { shooter, sun } = entry.moon;
  const team = teamOf(game, shooter);
  const amount = moonAmount(game, sun);
  const bonus = teamSums(game, bonusScores(game, entry));
  const option = (scores) => {
    const totals = dropBack(before.map((t, i) => t + scores[i]), game.settings).map((d) => d.total);
    const ends = gameEnds(game, totals);
    const low = lowest(totals);
    const shooterLowest = low.includes(shooter);
    return {
      scores, totals, wins: ends && shooterLowest, loses: ends && !shooterLowest,
      rivalWins: ends && low.some((seat) => !team.includes(seat)), // alone or in a tie
    };
  };
  return {
    add: option(bonus.map((b, i) => b + (team.includes(i) ? 0 : amount))),
    subtract: option(bonus.map((b, i) => b - (team.includes(i) ? amount : 0))),
  };
}

/**
 * The sensible choice for a shooter who chooses but was not asked: the option that ends the
 * game with the shooter winning; else the one that avoids ending it with the shooter losing;
 * otherwise add. The scorekeeper preselects it.
 */
export function suggestedChoice(game, before, entry) {
  const { add, subtract } = moonOptions(game, before, entry);
  if (add.wins) return "add";
  if (subtract.wins) return "subtract";
  if (add.loses && !subtract.loses) return "subtract";
  return "add";
}

/**
 * Score a checked round against the totals before it.
 * Returns {points, totals, notes, choice}: points are what each player scored this round
 * (after moon, bonus card and partnership), totals the running totals after it (after any
 * drop-back), choice how a moon was scored ("add" or "subtract", null without a moon).
 */
export function scoreRound(game, before, entry) {
  const { settings, players } = game;
  const notes = [];
  let points;
  let choice = null;
  if (entry.moon) {
    const s = entry.moon.shooter;
    const full = moonAmount(game, entry.moon.sun);
    const who = teamWords(game, s);
    const sun = full > pointsPerRound(players.length);
    const options = moonOptions(game, before, entry);
    choice = settings.moonRule;
    if (choice === "choose") {
      choice = ["add", "subtract"].includes(entry.moon.choice) ? entry.moon.choice : suggestedChoice(game, before, entry);
    } else if (choice === "add-unless-losing") {
      // Decided on the totals after adding, drop-back included: a rival who lands on the
      // target and drops back has not ended the game.
      choice = options.add.rivalWins ? "subtract" : "add";
      if (choice === "subtract") {
        const rival = team(game) ? "the other team" : "someone else";
        notes.push(`${full} to the others would end the game with ${rival} winning, so ${who} ${team(game) ? "take" : "takes"} ${full} off instead.`);
      }
    }
    points = options[choice].scores;
    const what = sun ? "shot the sun (every trick)" : "shot the moon";
    const others = settings.partnership
      ? teamWords(game, s + 1)
      : "everyone else";
    notes.unshift(choice === "subtract"
      ? `${who} ${what} and ${team(game) ? "take" : "takes"} ${full} off${team(game) ? " each" : ""}.`
      : `${who} ${what}: ${others} ${team(game) ? "get" : "gets"} ${full}${team(game) ? " each" : ""}.`);
  } else {
    points = teamSums(game, entry.points.map(parsePoints).map((p, i) => p + bonusScores(game, entry)[i]));
  }
  const settled = dropBack(before.map((t, i) => t + points[i]), settings);
  const dropped = settled.flatMap((d, i) => (d.dropped && teamOf(game, i)[0] === i ? [i] : []));
  for (const i of dropped) {
    notes.push(`${teamWords(game, i)} landed on exactly ${settings.target} and ${team(game) ? "drop" : "drops"} back to ${settled[i].total}.`);
  }
  return { points, totals: settled.map((d) => d.total), notes, choice };
}

function team(game) {
  return Boolean(game.settings.partnership);
}

/**
 * Add a round if it checks out; returns {game, check}. The game passed in is not changed.
 * `saved` for a round read back from storage (see `checkRound`).
 */
export function addRound(game, entry, { saved = false } = {}) {
  const check = checkRound(game, entry, { saved });
  if (!check.ok) return { game, check };
  const stored = {
    points: entry.moon ? Array(game.players.length).fill(0) : entry.points.map(parsePoints),
    bonus: game.settings.bonus === "none" ? Array(game.players.length).fill(0) : [...entry.bonus],
    moon: entry.moon
      ? {
          shooter: entry.moon.shooter,
          choice: ["add", "subtract"].includes(entry.moon.choice) ? entry.moon.choice : null,
          sun: Boolean(entry.moon.sun),
        }
      : null,
  };
  return { game: { ...game, rounds: [...game.rounds, stored] }, check };
}

/** The game as it stood before round `index` (0-based) was played: its rounds cut there. */
export function before(game, index) {
  return { ...game, rounds: game.rounds.slice(0, index) };
}

/**
 * Put `entry` in place of round `index` (0-based) if it checks out and the rounds after it
 * still follow (a fixed round must not end the game before them); returns {game, check}.
 * The rounds after it are scored again from their own points.
 */
export function replaceRound(game, index, entry) {
  const fixed = addRound(before(game, index), entry);
  if (!fixed.check.ok) return { game, check: fixed.check };
  const rounds = [...fixed.game.rounds, ...game.rounds.slice(index + 1)];
  const result = { ...game, rounds };
  for (let played = index + 1; played < rounds.length; played += 1) {
    if (isOver(before(result, played))) {
      const one = played + 1 === rounds.length;
      const later = one ? `round ${rounds.length}` : `rounds ${played + 1} to ${rounds.length}`;
      const message = `With these points the game ends after round ${played}, so ${later} could not`
        + ` have been played: undo ${one ? "it" : "them"} first.`;
      return { game, check: { ok: false, message } };
    }
  }
  return { game: result, check: fixed.check };
}

export function undoRound(game) {
  return { ...game, rounds: game.rounds.slice(0, -1) };
}

/** Replay every round: the history, totals, leaders, and whether (and who) won. */
export function summary(game) {
  let totals = game.players.map(() => 0);
  const history = game.rounds.map((entry, index) => {
    const scored = scoreRound(game, totals, entry);
    totals = scored.totals;
    return { index, pass: passFor(game, index), entry, ...scored };
  });
  const leaders = lowest(totals);
  const reached = totals.some((t) => t >= game.settings.target);
  // "Play on": a tie for the lowest total at the end means one more round, until one is lowest.
  const over = gameEnds(game, totals);
  return {
    history,
    totals,
    leaders: game.rounds.length ? leaders : [],
    over,
    winners: over ? leaders : [],
    nextRound: game.rounds.length + 1,
    nextPass: passFor(game, game.rounds.length),
    tieBreak: reached && !over,
  };
}

export function isOver(game) {
  return summary(game).over;
}

/**
 * A person's name set apart from the words round it, between U+2068 FIRST STRONG ISOLATE and
 * U+2069 POP DIRECTIONAL ISOLATE, as the game's words.js `named` does: a right-to-left name
 * ("سارة", "מרים") then keeps the numbers and commas after it in their places, and two of them
 * side by side ("سارة, מרים and Ana") keep their order. A box that holds a name alone is set
 * apart by the style sheet instead (`unicode-bidi: isolate`). Every name put in a sentence
 * goes through here.
 */
export function named(name) {
  return `\u2068${name}\u2069`;
}

/** "Ana", "Ana and Ben", "Ana, Ben and Cy". */
export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/**
 * Check a game loaded from storage, round by round. Returns {game, dropped}: the game with
 * every round that still checks out (null when the players or rules do not hold together),
 * and the numbers (1-based) of the saved rounds that were left out.
 */
export function restoreGame(data) {
  try {
    const names = data?.players;
    if (data?.version !== 1 || !Array.isArray(names) || !names.every((name) => typeof name === "string")) {
      return { game: null, dropped: [] };
    }
    if (!Array.isArray(data.rounds)) return { game: null, dropped: [] };
    let game = newGame(names, data.settings ?? {});
    const dropped = [];
    data.rounds.forEach((round, index) => {
      try {
        const entry = {
          points: round.points.map(String),
          // Games without a bonus card kept no bonus in their rounds at first.
          bonus: round.bonus ?? game.players.map(() => 0),
          moon: round.moon ?? null,
        };
        const next = entryFits(game, entry) ? addRound(game, entry, { saved: true }) : null;
        if (next?.check.ok) game = next.game;
        else dropped.push(index + 1);
      } catch {
        dropped.push(index + 1);
      }
    });
    return { game, dropped };
  } catch {
    return { game: null, dropped: [] };
  }
}
