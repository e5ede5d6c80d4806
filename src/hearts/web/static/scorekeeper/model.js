// The scorekeeper's rules: settings, checking a round, scoring it, and the state of the game.
// Pure functions over plain objects (no DOM, no storage), so every screen reads the same facts.

export const MIN_PLAYERS = 3;
export const MAX_PLAYERS = 10;
export const MAX_NAME = 20;
export const MIN_TARGET = 10;
export const MAX_TARGET = 1000;

export const MOON_RULES = {
  add: "Everyone else gets 26",
  subtract: "The shooter takes 26 off",
  choose: "The shooter chooses",
  "add-unless-losing": "Everyone else gets 26, unless that ends the game with the shooter losing",
};

export const BONUS_CARDS = {
  none: "No bonus card",
  jack: "Jack of diamonds, −10",
  ten: "Ten of diamonds, −10",
};

export const EXACT_TARGET = {
  none: "No change",
  half: "Drops back to half",
  zero: "Drops back to 0",
};

export const TIES = {
  share: "They share the win",
  "play-on": "Play on until one is lowest",
};

const CYCLES = {
  standard4: ["left", "right", "across", "hold"],
  standard3: ["left", "right", "hold"],
  "no-hold4": ["left", "right", "across"],
  "no-hold3": ["left", "right"],
  scatter4: ["left", "right", "across", "scatter"],
};

export const PASS_WORDS = {
  left: "pass left",
  right: "pass right",
  across: "pass across",
  hold: "hold (no passing)",
  scatter: "scatter (one card to each other player)",
  none: "no passing",
};

export const PASS_SHORT = {
  left: "Left",
  right: "Right",
  across: "Across",
  hold: "Hold",
  scatter: "Scatter",
  none: "None",
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
      { value: "standard", label: "Left, right, across, hold" },
      { value: "no-hold", label: "Left, right, across (no hold)" },
      { value: "scatter", label: "Left, right, across, scatter" },
      { value: "none", label: "No passing" },
    ];
  }
  if (playerCount <= 5) {
    return [
      { value: "standard", label: "Left, right, hold" },
      { value: "no-hold", label: "Left, right (no hold)" },
      { value: "none", label: "No passing" },
    ];
  }
  return [
    { value: "none", label: "No passing (usual with two decks)" },
    { value: "standard", label: "Left, right, hold" },
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
  };
}

export function passCycle(playerCount, passing) {
  if (passing === "none") return [];
  const size = playerCount === 4 ? "4" : "3";
  return CYCLES[`${passing}${size}`] ?? CYCLES[`standard${size}`];
}

/** The pass direction of round `index` (0 is the first round). */
export function passFor(game, index) {
  const cycle = passCycle(game.players.length, game.settings.passing);
  return cycle.length ? cycle[index % cycle.length] : "none";
}

export function bonusName(bonus, decks = 1) {
  const card = bonus === "ten" ? "ten of diamonds" : "jack of diamonds";
  return decks > 1 ? `${card.replace(" of", "s of")}` : card;
}

/** A new game from names and settings, or an Error whose message says what to fix. */
export function newGame(names, settings) {
  const players = names.map((name) => String(name ?? "").trim());
  if (players.length < MIN_PLAYERS || players.length > MAX_PLAYERS) {
    throw new Error(`Hearts needs ${MIN_PLAYERS} to ${MAX_PLAYERS} players; you have ${players.length}.`);
  }
  const blank = players.findIndex((name) => name === "");
  if (blank >= 0) throw new Error(`Player ${blank + 1} needs a name.`);
  const long = players.find((name) => name.length > MAX_NAME);
  if (long) throw new Error(`"${long.slice(0, 24)}…" is too long; keep names to ${MAX_NAME} letters.`);
  const seen = new Map();
  for (const name of players) {
    const key = name.toLocaleLowerCase();
    if (seen.has(key)) throw new Error(`Two players are called "${name}"; give each a different name.`);
    seen.set(key, true);
  }
  const target = Number(settings.target);
  if (!Number.isInteger(target) || target < MIN_TARGET || target > MAX_TARGET) {
    throw new Error(`The target score must be a whole number from ${MIN_TARGET} to ${MAX_TARGET}.`);
  }
  if (!(settings.moonRule in MOON_RULES)) throw new Error("Choose how a moon is scored.");
  if (!(settings.bonus in BONUS_CARDS)) throw new Error("Choose a bonus card, or none.");
  if (!(settings.exact in EXACT_TARGET)) throw new Error("Choose what landing on the target does.");
  const tie = settings.tie ?? "share";
  if (!(tie in TIES)) throw new Error("Choose what a tie for the lowest total does.");
  const passing = passingOptions(players.length).some((o) => o.value === settings.passing)
    ? settings.passing
    : passingOptions(players.length)[0].value;
  return {
    version: 1,
    players,
    settings: { moonRule: settings.moonRule, target, bonus: settings.bonus, passing, exact: settings.exact, tie },
    rounds: [],
  };
}

/** An empty round entry for a game. */
export function emptyEntry(game) {
  const n = game.players.length;
  return { points: Array(n).fill(""), bonus: Array(n).fill(0), moon: null };
}

/** Parse one points field: "" counts as 0. Returns a number or NaN. */
export function parsePoints(text) {
  const clean = String(text ?? "").trim();
  if (clean === "") return 0;
  if (!/^[+-]?\d+$/.test(clean)) return NaN;
  return Number(clean);
}

function sumOf(values) {
  return values.reduce((a, b) => a + b, 0);
}

/**
 * Check a round entry. Returns {ok, message, sum, expected}; message is one plain sentence
 * saying what is wrong (or, when ok, what will be scored).
 */
export function checkRound(game, entry) {
  const n = game.players.length;
  const decks = decksFor(n);
  const expected = 26 * decks;
  const names = game.players;
  const bonusOn = game.settings.bonus !== "none";
  const card = bonusName(game.settings.bonus);
  const result = (ok, message, sum = 0) => ({ ok, message, sum, expected });

  if (game.rounds.length && isOver(game)) return result(false, "The game is over. Undo the last round or start a new game.");

  const bonusProblem = () => {
    if (!bonusOn) return null;
    const marked = sumOf(entry.bonus);
    if (entry.bonus.some((b) => !Number.isInteger(b) || b < 0 || b > decks)) {
      return `A player can take at most ${decks} ${card}${decks > 1 ? "s" : ""}.`;
    }
    if (marked < decks) {
      return decks === 1
        ? `Mark who took the ${card} (its button beside their name).`
        : `Mark who took both ${card}s: ${marked} of 2 marked so far.`;
    }
    if (marked > decks) {
      const what = decks === 1 ? `one ${card} is` : `two ${card}s are`;
      return `Only ${what} in play, but ${marked} are marked.`;
    }
    return null;
  };

  if (entry.moon) {
    const shooter = entry.moon.shooter;
    if (!Number.isInteger(shooter) || shooter < 0 || shooter >= n) {
      return result(false, "Pick who shot the moon.");
    }
    if (game.settings.moonRule === "choose" && !["add", "subtract"].includes(entry.moon.choice)) {
      return result(false, `Pick what ${names[shooter]} chooses: ${expected} to everyone else, or ${expected} off.`);
    }
    const problem = bonusProblem();
    if (problem) return result(false, problem, expected);
    return result(true, `${names[shooter]} shot the moon.`, expected);
  }

  const values = entry.points.map(parsePoints);
  for (let i = 0; i < n; i += 1) {
    const v = values[i];
    if (Number.isNaN(v) || v < 0 || v > expected) {
      const hint = bonusOn && v < 0 ? ` Mark the ${card} with its button; type only hearts and queens here.` : "";
      return { ...result(false, `${names[i]}'s points must be a whole number from 0 to ${expected}.${hint}`), player: i };
    }
  }
  const sum = sumOf(values);
  const withBonus = bonusOn ? ` (${sum - 10 * decks} after the ${card}${decks > 1 ? "s" : ""})` : "";
  if (sum !== expected) {
    const missing = sum < expected ? `${expected - sum} missing` : `${sum - expected} too many`;
    return result(false, `These add up to ${sum}; a round holds ${expected} (${missing}).`, sum);
  }
  const all = values.findIndex((v) => v === expected);
  if (all >= 0) {
    return result(false, `${names[all]} took all ${expected} points: that is shooting the moon. Use "Shot the moon" to score it.`, sum);
  }
  const problem = bonusProblem();
  if (problem) return result(false, `These add up to ${expected}. ${problem}`, sum);
  return result(true, `These add up to ${expected}${withBonus}.`, sum);
}

function dropBack(totals, settings) {
  if (settings.exact === "none") return totals.map((t) => ({ total: t, dropped: false }));
  const to = settings.exact === "half" ? Math.floor(settings.target / 2) : 0;
  return totals.map((t) => (t === settings.target ? { total: to, dropped: true } : { total: t, dropped: false }));
}

function lowest(totals) {
  const min = Math.min(...totals);
  return totals.flatMap((t, i) => (t === min ? [i] : []));
}

/**
 * Score a checked round against the totals before it.
 * Returns {points, totals, notes}: points are what each player scored this round (after moon
 * and bonus card), totals the running totals after it (after any drop-back).
 */
export function scoreRound(game, before, entry) {
  const n = game.players.length;
  const decks = decksFor(n);
  const full = 26 * decks;
  const { settings, players } = game;
  const notes = [];
  const bonus = entry.bonus.map((b) => (settings.bonus === "none" ? 0 : -10 * b));
  let points;
  if (entry.moon) {
    const s = entry.moon.shooter;
    const add = () => players.map((_, i) => (i === s ? 0 : full));
    const subtract = () => players.map((_, i) => (i === s ? -full : 0));
    let rule = settings.moonRule;
    if (rule === "choose") rule = entry.moon.choice;
    if (rule === "add-unless-losing") {
      const tried = dropBack(before.map((t, i) => t + add()[i] + bonus[i]), settings).map((d) => d.total);
      const ends = tried.some((t) => t >= settings.target);
      rule = ends && !lowest(tried).includes(s) ? "subtract" : "add";
      if (rule === "subtract") notes.push(`${full} to the others would end the game with ${players[s]} losing, so ${players[s]} takes ${full} off instead.`);
    }
    points = rule === "subtract" ? subtract() : add();
    notes.unshift(rule === "subtract"
      ? `${players[s]} shot the moon and takes ${full} off.`
      : `${players[s]} shot the moon: everyone else gets ${full}.`);
  } else {
    points = entry.points.map(parsePoints);
  }
  points = points.map((p, i) => p + bonus[i]);
  const settled = dropBack(before.map((t, i) => t + points[i]), settings);
  settled.forEach((d, i) => {
    if (d.dropped) notes.push(`${players[i]} landed on exactly ${settings.target} and drops back to ${d.total}.`);
  });
  return { points, totals: settled.map((d) => d.total), notes };
}

/** Add a round if it checks out; returns {game, check}. The game passed in is not changed. */
export function addRound(game, entry) {
  const check = checkRound(game, entry);
  if (!check.ok) return { game, check };
  const stored = {
    points: entry.moon ? Array(game.players.length).fill(0) : entry.points.map(parsePoints),
    bonus: game.settings.bonus === "none" ? Array(game.players.length).fill(0) : [...entry.bonus],
    moon: entry.moon ? { shooter: entry.moon.shooter, choice: entry.moon.choice ?? null } : null,
  };
  return { game: { ...game, rounds: [...game.rounds, stored] }, check };
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
  const over = reached && (game.settings.tie !== "play-on" || leaders.length === 1);
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

/** "Ana", "Ana and Ben", "Ana, Ben and Cy". */
export function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** Check a game loaded from storage; returns the game or null when it does not hold together. */
export function restoreGame(data) {
  try {
    if (!data || data.version !== 1 || !Array.isArray(data.players) || !Array.isArray(data.rounds)) return null;
    let game = newGame(data.players, data.settings ?? {});
    for (const round of data.rounds) {
      const entry = {
        points: round.points.map(String),
        bonus: round.bonus,
        moon: round.moon,
      };
      const next = addRound(game, entry);
      if (!next.check.ok) return null;
      game = next.game;
    }
    return game;
  } catch {
    return null;
  }
}
