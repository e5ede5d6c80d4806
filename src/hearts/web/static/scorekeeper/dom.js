// A small helper for building elements: h("button", {type: "button", dataset: {action: "x"}}, "Text").

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "class") el.className = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A number as a score change: "+13", "−10", "0". */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${Math.abs(n)}`;
  return "0";
}

/** A total, with a real minus sign. */
export function total(n) {
  return n < 0 ? `−${Math.abs(n)}` : String(n);
}

/** Names are never cut, nor broken inside a word: a `[data-fit]` element in `root` whose
 * longest word is wider than its box gets a smaller font, just small enough for the word. */
export function fitWords(root) {
  const text = document.createRange();
  for (const el of root.querySelectorAll("[data-fit]")) {
    el.style.fontSize = "";
    el.style.overflowWrap = "normal"; // measured whole: the CSS breaks it only when not fitted
    text.selectNodeContents(el);
    // To the fraction of a pixel (scrollWidth rounds): a word over by less still breaks.
    const wide = () => text.getBoundingClientRect().width;
    const room = el.getBoundingClientRect().width; // 0 while hidden: fitted when shown
    let size = parseFloat(getComputedStyle(el).fontSize);
    for (let step = 0; step < 4 && room && wide() > room; step += 1) {
      size = Math.floor(((size * room) / wide()) * 10) / 10 - (step ? 0.5 : 0);
      el.style.fontSize = `${size}px`;
    }
    el.style.overflowWrap = "";
  }
}
