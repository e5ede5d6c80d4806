// Sentences the game shows, built from the state. Seats: 0 you, 1 left, 2 across, 3 right.

const WHERE = { 1: "on your left", 2: "across from you", 3: "on your right" };

export function where(seat) {
  return WHERE[seat] || "";
}

export function nameOf(state, seat) {
  return state.players[seat].name;
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** "Pass 3 to Marisol, on your left" */
export function passLabel(state) {
  const view = state.view;
  const n = view.cards_to_pass;
  if (view.pass_direction === "scatter") return `Pass ${n}: one to each player`;
  const to = view.pass_to[0];
  return `Pass ${n} to ${nameOf(state, to)}, ${where(to)}`;
}

export function directionPhrase(direction) {
  return {
    left: "Pass left",
    right: "Pass right",
    across: "Pass across",
    hold: "No passing: keep your cards",
    scatter: "Pass one card to each player",
    partner: "Pass to your partner",
  }[direction] || direction;
}

export function roundTitle(handNumber) {
  return `Round ${handNumber + 1}`;
}
