// Choices the person makes once and expects us to remember (in this browser only).

const KEY = "hearts.prefs.v1";

// `pause` is how long a finished trick stays on the table before it goes to its winner:
// long enough to see who took it, even at the fast speed.
export const SPEEDS = {
  slow: { label: "Slow", fly: 650, pause: 1800 },
  normal: { label: "Normal", fly: 380, pause: 1200 },
  fast: { label: "Fast", fly: 170, pause: 800 },
  instant: { label: "Instant", fly: 0, pause: 0 },
};

const DEFAULTS = {
  speed: "normal",
  showPoints: true,
  fourColour: false,
  autoPlay: false,
  tapToContinue: false,
  finishSettled: true,
  undo: true, // "Allow take-backs" on the start screen (games against computer players)
  sound: null, // null: not chosen yet (on, unless the system asks for reduced motion)
  players: 4, // the table size chosen on the start screen
  levels: [], // one per opponent, filled in from the options the server sends
  target: 100,
  preset: "standard",
  rules: {},
};

export function loadPrefs() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  const prefs = { ...DEFAULTS, ...saved };
  if (!SPEEDS[prefs.speed]) prefs.speed = DEFAULTS.speed;
  // A test or a link may ask for a speed for this visit: ?speed=instant. It is not saved:
  // the speed kept is the person's own unless they choose another in Settings.
  const asked = new URLSearchParams(location.search).get("speed");
  if (asked && SPEEDS[asked] && asked !== prefs.speed) {
    Object.defineProperty(prefs, "visit", { value: { asked, kept: prefs.speed }, enumerable: false });
    prefs.speed = asked;
  }
  return prefs;
}

export function savePrefs(prefs) {
  const kept = { ...prefs };
  if (prefs.visit && kept.speed === prefs.visit.asked) kept.speed = prefs.visit.kept;
  try {
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Private browsing may refuse storage; the game still works, it just forgets.
  }
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Whether sounds play: the person's own choice, else quiet when motion is reduced. */
export function soundOn(prefs) {
  return prefs.sound === null || prefs.sound === undefined ? !reducedMotion() : Boolean(prefs.sound);
}

/** Flight and pause times for the chosen speed (no flights when motion is reduced). */
export function timing(prefs) {
  const speed = SPEEDS[prefs.speed] || SPEEDS.normal;
  return reducedMotion() ? { fly: 0, pause: speed.pause } : speed;
}

// Which received cards the person has dismissed, per game and round.
export function dismissedKey(gameId, handNumber) {
  return `hearts.dismissed.${gameId}.${handNumber}`;
}

export function isDismissed(gameId, handNumber) {
  try {
    return sessionStorage.getItem(dismissedKey(gameId, handNumber)) === "1" ||
      localStorage.getItem(dismissedKey(gameId, handNumber)) === "1";
  } catch {
    return false;
  }
}

export function dismiss(gameId, handNumber) {
  try {
    localStorage.setItem(dismissedKey(gameId, handNumber), "1");
  } catch {
    // Forgetting a dismissal only means the marks come back after a reload.
  }
}
