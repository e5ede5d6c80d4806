// Faces of the computer players, drawn as SVG from a few traits (skin, hair, style, extra).

import { s } from "./dom.js";

function hair(style, colour) {
  if (style === "bun") {
    return [
      s("circle", { cx: 32, cy: 13, r: 7, fill: colour }),
      s("path", { d: "M15 31c0-13 8-19 17-19s17 6 17 19c-5-6-11-9-17-9s-12 3-17 9z", fill: colour }),
    ];
  }
  if (style === "curls") {
    return [13, 20, 28, 36, 44, 51].map((x, i) =>
      s("circle", { cx: x, cy: i === 0 || i === 5 ? 27 : 18 + (i % 2) * 2, r: 7, fill: colour }));
  }
  // bob
  return [s("path", {
    d: "M13 40c-2-17 6-27 19-27s21 10 19 27h-5c0-9-4-14-7-16-4 3-12 5-21 5v11z",
    fill: colour,
  })];
}

function extra(kind) {
  if (kind === "cap") {
    return [
      s("path", { d: "M14 22c2-10 34-10 36 0z", class: "face-cap" }),
      s("rect", { x: 12, y: 21, width: 40, height: 4, rx: 2, class: "face-cap-brim" }),
      s("circle", { cx: 32, cy: 16, r: 2.5, class: "face-cap-badge" }),
    ];
  }
  if (kind === "toque") {
    return [
      s("path", { d: "M18 20c-6-4-3-13 4-11c2-6 18-6 20 0c7-2 10 7 4 11z", class: "face-toque" }),
      s("rect", { x: 19, y: 18, width: 26, height: 6, rx: 1, class: "face-toque" }),
    ];
  }
  if (kind === "glasses") {
    return [
      s("circle", { cx: 25, cy: 35, r: 5.5, class: "face-glasses" }),
      s("circle", { cx: 39, cy: 35, r: 5.5, class: "face-glasses" }),
      s("path", { d: "M30.5 35h3", class: "face-glasses" }),
    ];
  }
  return [];
}

/** A face for an opponent; `mood` is "calm", "pleased" or "glum". */
export function face(traits, mood = "calm", label = null) {
  const mouth = {
    calm: "M26 45c4 2 8 2 12 0",
    pleased: "M25 43c4 5 10 5 14 0",
    glum: "M26 47c4-3 8-3 12 0",
  }[mood] || "M26 45c4 2 8 2 12 0";
  const attrs = { viewBox: "0 0 64 64", class: `face mood-${mood}` };
  if (label) {
    attrs.role = "img";
    attrs["aria-label"] = label;
  } else {
    attrs["aria-hidden"] = "true";
  }
  return s("svg", attrs,
    s("circle", { cx: 32, cy: 32, r: 31, class: "face-bg" }),
    s("path", { d: "M14 64c2-11 9-16 18-16s16 5 18 16z", class: "face-shirt" }),
    s("ellipse", { cx: 32, cy: 34, rx: 15, ry: 17, fill: traits.skin }),
    ...hair(traits.style, traits.hair),
    s("circle", { cx: 25.5, cy: 35, r: 1.8, class: "face-eye" }),
    s("circle", { cx: 38.5, cy: 35, r: 1.8, class: "face-eye" }),
    s("path", { d: mouth, class: "face-mouth" }),
    ...extra(traits.extra));
}
