// What each player has taken this round, read from the tricks the server sent (and the
// kitty): the hearts, the queen of spades and the bonus card. The points themselves always
// come from the server; this only says which cards made them.

/** Cards each seat has won so far this round: an array of card lists, one per seat. */
export function wonCards(state) {
  const view = state.view;
  const won = state.players.map(() => []);
  for (const trick of view.tricks) {
    if (trick.held_over) continue; // its cards wait for the next trick's winner
    won[trick.winner].push(...trick.plays.map(([, card]) => card), ...trick.carried);
  }
  if (view.kitty_taker !== null && view.kitty) won[view.kitty_taker].push(...view.kitty);
  return won;
}

/** The bonus card of this game ("JD", "TD"), or null. */
export function bonusCard(state) {
  const rules = state.view.rules;
  return rules.bonus_card || null;
}

/** Per seat: {hearts, queen, bonus, bonuses}: the number of hearts, how many queens of
 * spades (0, 1, or 2 with two decks) the seat took, the bonus card if it is among them (else
 * null), and how many copies of it (2 when one seat takes both with two decks). */
export function takenSummary(state) {
  return summarize(wonCards(state), bonusCard(state));
}

/** The same from the cards each seat has won (`wonCards`), for a table shown move by move. */
export function summarize(won, bonus) {
  return won.map((cards) => ({
    hearts: cards.filter((card) => card[1] === "H").length,
    queen: cards.filter((card) => card === "QS").length,
    bonus: bonus !== null && cards.includes(bonus) ? bonus : null,
    bonuses: bonus === null ? 0 : cards.filter((card) => card === bonus).length,
  }));
}
