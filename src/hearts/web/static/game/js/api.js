// The JSON API. Every refusal comes back as an Error whose message is the server's sentence.

export class Refused extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** Note when a state came in (`table.received`, this clock's seconds): the turn timer
 * compares the server's `table.now` with it, not with when the state is drawn, which may be
 * seconds later, after the cards before it have been shown moving. */
export function stamp(data) {
  for (const state of [data, data?.state]) {
    if (state?.table && typeof state.table.now === "number") state.table.received = Date.now() / 1000;
  }
  return data;
}

/** What to say of a refusal that came without a sentence of ours (a proxy's own page while
 * the game server restarts, a request the proxy found too large). */
export function statusWords(status) {
  if (status === 502 || status === 503 || status === 504) {
    return "The game server is not answering just now: try again in a moment.";
  }
  if (status === 413 || status === 414) return "That request is larger than the server accepts.";
  if (status === 429) return "Too many requests at once: wait a moment, then try again.";
  return `The server could not answer (error ${status}): try again in a moment.`;
}

/** What a request that never reached the server says. */
export const UNREACHABLE = "The game server cannot be reached. Check that it is running, then try again.";
/** The same, when the device itself has no network: not the server's fault (a phone that had
 * lost its signal was told to check that the server was running). */
export const OFFLINE = "This device is offline, so nothing was sent: try again once it is back online.";
/** Said as the device goes offline, before anything is tried. */
export const GONE_OFFLINE = "This device is offline: the game goes on once it is back online.";

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
      credentials: "same-origin",
    });
  } catch {
    throw new Refused(0, navigator.onLine === false ? OFFLINE : UNREACHABLE);
  }
  let data = null;
  try {
    data = stamp(await response.json());
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = data && typeof data.detail === "string" ? data.detail : statusWords(response.status);
    throw new Refused(response.status, detail, data);
  }
  return data;
}

const at = (state) => `/api/games/${encodeURIComponent(state.id)}`;
const seen = (state) => ({ move: state.move, undos: state.undo.used });

export const api = {
  options: () => call("GET", "/api/options"),
  current: () => call("GET", "/api/games/current"),
  newGame: (levels, rules, undo = true) => call("POST", "/api/games", { levels, rules, undo }),
  game: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  // Moves name the state they were made from: its move count and the take-backs it has seen.
  pass: (state, cards) => call("POST", `${at(state)}/pass`, { ...seen(state), cards }),
  // finish: then play the round out if no point can change hands any more.
  play: (state, card, finish = false) =>
    call("POST", `${at(state)}/play${finish ? "?finish=true" : ""}`, { ...seen(state), card }),
  moon: (state, choice) => call("POST", `${at(state)}/moon`, { ...seen(state), choice }),
  next: (state) => call("POST", `${at(state)}/next`, seen(state)),
};
api.games = () => call("GET", "/api/games");
api.undo = (state) => call("POST", `${at(state)}/undo`, seen(state));
// A hint is asked with POST: it is counted and the others are told, so a GET must not ask.
api.hint = (id) => call("POST", `/api/games/${encodeURIComponent(id)}/hint`, {});
api.review = (id, round) => call("GET", `/api/games/${encodeURIComponent(id)}/review?round=${round}`);

// Tables with friends (docs/web.md, "Playing with friends").
const game = (id, tail = "") => `/api/games/${encodeURIComponent(id)}${tail}`;
/** body: {rules, seats: ["you", "friend", "hard", ...], fill, turn_time, name} */
api.newTable = (body) => call("POST", "/api/games", body);
/** Who a table of these seats (as newTable takes them) seats where, as its lobby will show
 * it: nothing is made. */
api.seating = (seats) => call("GET", `/api/seating?${new URLSearchParams(seats.map((s) => ["seats", s]))}`);
api.invitation = (id, invite) => call("POST", game(id, "/invitation"), { invite });
api.join = (id, invite, name) => call("POST", game(id, "/join"), { invite, name });
api.start = (id) => call("POST", game(id, "/start"), {});
api.react = (id, reaction) => call("POST", game(id, "/react"), { reaction });
api.rematch = (id) => call("POST", game(id, "/rematch"), {});
api.leave = (id) => call("POST", game(id, "/leave"), {});
api.eventsUrl = (id) => game(id, "/events");
/** The page is open and reaching the server: the answer to each ping of the event stream. */
api.here = (id) => call("POST", game(id, "/here"), {});
