// The live table: one EventSource on /api/games/{id}/events for a table with friends. Each
// message's data is a whole GameState (its events: what happened since the last message).
// The browser reconnects by itself after a lost connection (sending Last-Event-ID); when the
// server refused the stream outright (the source is CLOSED), we open a new one after a pause.

import { api } from "./api.js";

const REOPEN_MS = 3000;

export class Live {
  /** onState(state) for each message; onStatus("open" | "reconnecting") as the line changes;
   * onGone(sentence) when the server says the game is gone (the stream then stays closed). */
  constructor(id, { onState, onStatus, onGone }) {
    this.id = id;
    this.onState = onState;
    this.onStatus = onStatus;
    this.onGone = onGone;
    this.source = null;
    this.timer = null;
    this.closed = false;
    this.open();
  }

  open() {
    if (this.closed) return;
    const source = new EventSource(api.eventsUrl(this.id));
    this.source = source;
    const take = (message) => {
      let state;
      try {
        state = JSON.parse(message.data);
      } catch {
        return; // a message we cannot read is skipped; the next whole state catches up
      }
      this.onState(state);
    };
    source.addEventListener("state", take);
    source.addEventListener("table", take);
    source.addEventListener("message", take);
    source.addEventListener("open", () => this.onStatus("open"));
    source.addEventListener("gone", (message) => {
      let detail = "This game is over or gone.";
      try {
        detail = JSON.parse(message.data).detail || detail;
      } catch {
        // Keep the plain sentence.
      }
      this.close();
      this.onGone?.(detail);
    });
    source.addEventListener("error", () => {
      if (this.source !== source || this.closed) return;
      this.onStatus("reconnecting");
      if (source.readyState === EventSource.CLOSED) {
        // Refused (a 5xx from a proxy, a server restarting): try again, a new stream.
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.open(), REOPEN_MS);
      }
    });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.source) this.source.close();
    this.source = null;
  }
}
