// "Replay this round": after a round, a link to the replay page for it (every hand face up,
// trick by trick). Its deal key is revealed by then, so showing the hands gives nothing away.

import { h } from "./dom.js";

/** The link for the round just finished (at the end, for the whole game), or null before
 * any round is over. */
export function replayRoundLink(state) {
  if (!state.results.length) return null;
  const over = state.phase === "game-over";
  const query = new URLSearchParams({ game: state.id });
  if (!over) query.set("round", String(state.results.length));
  return h("p", { class: "deal-check" },
    h("a", { href: `/replay?${query}`, "data-action": over ? "replay-game" : "replay-round", target: "_blank",
      rel: "noopener" }, over ? "Replay the game" : "Replay this round"),
    " (trick by trick, every hand face up)");
}
