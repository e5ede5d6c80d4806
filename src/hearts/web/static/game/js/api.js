// The JSON API. Every refusal comes back as an Error whose message is the server's sentence.

export class Refused extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

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
    throw new Refused(0, "The game server cannot be reached. Check that it is running, then try again.");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = data && typeof data.detail === "string" ? data.detail : `The server said ${response.status}.`;
    throw new Refused(response.status, detail, data);
  }
  return data;
}

export const api = {
  options: () => call("GET", "/api/options"),
  current: () => call("GET", "/api/games/current"),
  newGame: (levels, rules, undo = true) => call("POST", "/api/games", { levels, rules, undo }),
  game: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  pass: (id, move, cards) => call("POST", `/api/games/${encodeURIComponent(id)}/pass`, { move, cards }),
  // finish: then play the round out if no point can change hands any more.
  play: (id, move, card, finish = false) =>
    call("POST", `/api/games/${encodeURIComponent(id)}/play${finish ? "?finish=true" : ""}`, { move, card }),
  moon: (id, move, choice) => call("POST", `/api/games/${encodeURIComponent(id)}/moon`, { move, choice }),
  next: (id, move) => call("POST", `/api/games/${encodeURIComponent(id)}/next`, { move }),
};
api.games = () => call("GET", "/api/games");
api.undo = (id, move) => call("POST", `/api/games/${encodeURIComponent(id)}/undo`, { move });
api.hint = (id) => call("GET", `/api/games/${encodeURIComponent(id)}/hint`);
api.review = (id, round) => call("GET", `/api/games/${encodeURIComponent(id)}/review?round=${round}`);

// Tables with friends (docs/web.md, "Playing with friends").
const game = (id, tail = "") => `/api/games/${encodeURIComponent(id)}${tail}`;
/** body: {rules, seats: ["you", "friend", "hard", ...], fill, turn_time, name} */
api.newTable = (body) => call("POST", "/api/games", body);
api.join = (id, invite, name) => call("POST", game(id, "/join"), { invite, name });
api.start = (id) => call("POST", game(id, "/start"), {});
api.react = (id, reaction) => call("POST", game(id, "/react"), { reaction });
api.rematch = (id) => call("POST", game(id, "/rematch"), {});
api.eventsUrl = (id) => game(id, "/events");
