// Card flights: an element already in its final place is animated from where it came from.
// With no time (instant speed or reduced motion) nothing moves.

export async function flyFrom(el, from, ms) {
  if (!ms || !el.animate) return;
  const to = el.getBoundingClientRect();
  if (!to.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(0.4, Math.min(1.6, from.width / to.width));
  const flight = el.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.6 },
      { transform: "none", opacity: 1 },
    ],
    { duration: ms, easing: "cubic-bezier(.2,.75,.3,1)" },
  );
  await flight.finished.catch(() => {});
}

/** Send elements towards a box (a trick going to its winner) and fade them. */
export async function sweepTo(elements, box, ms) {
  if (!ms) return;
  // Every box is read before the first flight starts: a read after one starts restyles the page.
  const moving = elements.filter((el) => el.animate);
  const boxes = moving.map((el) => el.getBoundingClientRect());
  const flights = moving.map((el, i) => {
    const from = boxes[i];
    const dx = box.left + box.width / 2 - (from.left + from.width / 2);
    const dy = box.top + box.height / 2 - (from.top + from.height / 2);
    return el.animate(
      [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0 }],
      { duration: ms, easing: "ease-in", fill: "forwards" },
    ).finished.catch(() => {});
  });
  await Promise.all(flights);
}
