// The live table: one EventSource on /api/games/{id}/events for a table with friends. Each
// message's data is a whole GameState (its events: what happened since the last message).
// The browser reconnects by itself after a lost connection (sending Last-Event-ID). When the
// server answered a reconnection with anything but 200 the source gives up (CLOSED): then we
// open a new one after a pause (1 s, 2 s, 4 s... at most 15 s) with ?since=<the move shown>,
// since a new EventSource sends no Last-Event-ID. "reconnecting" from the server (its store
// is away for a moment) shows the same note until the next message.
//
// The server pings every few seconds ("ping", data {every}); the page answers each with
// POST /here, which is how the others know it is still there (a phone gone offline leaves
// its stream open, so the stream alone proves nothing). A page that hears nothing for two
// pings and a little more has lost the server without being told: it says it is
// reconnecting and opens a new stream.

import { api, stamp } from "./api.js";

const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 15000;
/** Pings missed, and the seconds more, before the line is taken as lost. */
const MISSED_PINGS = 2;
const SLACK_MS = 3000;

export class Live {
  /** onState(state) for each message; onStatus("open" | "reconnecting") as the line changes;
   * onGone(sentence) when the server says the game is gone, onLeft(sentence) when this
   * browser no longer holds the seat (it left the table in another tab): the stream then
   * stays closed. */
  constructor(id, { onState, onStatus, onGone, onLeft, since }) {
    this.id = id;
    this.since = since;
    this.pause = FIRST_PAUSE_MS;
    this.onState = onState;
    this.onStatus = onStatus;
    this.onGone = onGone;
    this.onLeft = onLeft;
    this.source = null;
    this.timer = null;
    this.watchdog = null;
    this.every = null; // seconds between the server's pings, once one has come
    this.unheard = false; // the last answer to a ping did not get through
    this.closed = false;
    this.open();
  }

  open() {
    if (this.closed) return;
    const shown = this.source ? this.since?.() : null; // a new source after one gave up
    const url = api.eventsUrl(this.id) + (Number.isInteger(shown) ? `?since=${shown}` : "");
    const source = new EventSource(url);
    this.source = source;
    this.watch();
    const take = (message) => {
      this.watch();
      let state;
      try {
        state = stamp(JSON.parse(message.data));
      } catch {
        return; // a message we cannot read is skipped; the next whole state catches up
      }
      this.pause = FIRST_PAUSE_MS;
      // An old stream still heard while nothing sent gets through (offline): the news is
      // shown, and the page still says it is reconnecting until an answer gets through.
      if (!this.unheard) this.onStatus("open");
      this.onState(state);
    };
    source.addEventListener("state", take);
    source.addEventListener("table", take);
    source.addEventListener("message", take);
    source.addEventListener("open", () => {
      this.watch();
      this.unheard = false; // a new stream's request got through
      this.onStatus("open");
    });
    source.addEventListener("ping", (message) => {
      if (this.source !== source) return;
      try {
        const every = Number(JSON.parse(message.data).every);
        if (every > 0) this.every = every;
      } catch {
        // The last known interval stands.
      }
      this.watch();
      this.answer(source);
    });
    source.addEventListener("reconnecting", () => this.onStatus("reconnecting"));
    const ended = (fallback, then) => (message) => {
      let detail = fallback;
      try {
        detail = JSON.parse(message.data).detail || detail;
      } catch {
        // Keep the plain sentence.
      }
      this.close();
      then?.(detail);
    };
    source.addEventListener("gone", ended("This game is over or gone.", this.onGone));
    source.addEventListener("left", ended("You left this table.", this.onLeft));
    source.addEventListener("error", () => {
      if (this.source !== source || this.closed) return;
      this.onStatus("reconnecting");
      if (source.readyState === EventSource.CLOSED) {
        // Refused (a 503 while the store is away, a server restarting behind a proxy): a
        // new stream after a pause that doubles up to a limit.
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.open(), this.pause);
        this.pause = Math.min(LONGEST_PAUSE_MS, this.pause * 2);
      }
    });
  }

  /** Answer a ping. A device gone offline may still hear an old stream's pings while
   * nothing it sends gets through: then the page says it is reconnecting, until an answer
   * gets through again. */
  answer(source) {
    api.here(this.id).then(() => {
      if (this.unheard && this.source === source && !this.closed) this.onStatus("open");
      this.unheard = false;
    }, (refused) => {
      if (refused?.status !== 0 && refused?.status < 500) return; // told by the stream itself
      this.unheard = true;
      if (this.source === source && !this.closed) this.onStatus("reconnecting");
    });
  }

  /** Heard from the server just now: the line is lost if nothing more comes within two
   * pings and a little more (known once the first ping came). */
  watch() {
    clearTimeout(this.watchdog);
    if (this.closed || !this.every) return;
    this.watchdog = setTimeout(() => this.lost(), this.every * 1000 * MISSED_PINGS + SLACK_MS);
  }

  /** Nothing heard from the server for too long, though the stream never said it ended (a
   * phone gone offline, a network that dropped the connection silently). */
  lost() {
    if (this.closed) return;
    this.onStatus("reconnecting");
    clearTimeout(this.timer);
    this.source?.close(); // kept as this.source, so the new one asks for the moves since
    this.open(); // watched again: tried anew every two pings until the server answers
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.watchdog);
    if (this.source) this.source.close();
    this.source = null;
  }
}
