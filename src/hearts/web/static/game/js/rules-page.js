// The rules page: the light or dark choice, and, when "Check this deal" led here, the round's
// key, fingerprint and hand filled into the two lines of Python that check it.

import { applyTheme, themeControl } from "./theme.js";
import { foldingMenu } from "./menu.js";
import { nameWaysBack } from "./shown-game.js";
import { h, clear } from "./dom.js";
import { cardSymbol } from "./cards.js";

applyTheme();
foldingMenu();
nameWaysBack();
const place = document.querySelector("[data-region=theme]");
if (place) place.replaceChildren(themeControl());
fillDealCheck(new URLSearchParams(location.search));

function fillDealCheck(query) {
  const key = query.get("key");
  const code = document.querySelector("[data-region=deal-code] code");
  const facts = document.querySelector("[data-region=deal-facts]");
  // Only text we expect goes into the page: a key and a fingerprint are hex.
  if (!key || !/^[0-9a-f]{16,128}$/.test(key) || !code || !facts) return;
  const number = (name, fallback) => {
    const value = Number.parseInt(query.get(name) ?? "", 10);
    return Number.isInteger(value) && value >= 0 && value < 10000 ? value : fallback;
  };
  const round = number("round", 0);
  const seat = number("seat", 0);
  const players = number("players", 4);
  const seen = /^[0-9a-f]{64}$/.test(query.get("seen") || "") ? query.get("seen") : null;
  const hand = (query.get("hand") || "").split(" ").filter((card) => /^[2-9TJQKA][CDHS]$/.test(card));
  const rules = `hearts.Rules(players=${players}${query.get("kitty") === "1" ? ", kitty=True" : ""})`;
  code.textContent = "import hashlib, hearts\n" +
    `print(hashlib.sha256(b"${key}").hexdigest() == "${seen || "FINGERPRINT"}", ` +
    `*(card.symbol for card in sorted(hearts.Round.deal(${rules}, seed="${key}", hand_number=${round}).hand(${seat}), key=lambda card: card.face)))`;
  clear(facts,
    `Round ${round + 1}'s key (hand_number=${round} in the line above, which counts from 0) is `,
    h("code", {}, key), ". ",
    seen ? ["The fingerprint shown while you played it was ", h("code", {}, seen), ". "]
      : "This browser did not keep the fingerprint shown while you played; put it in place of FINGERPRINT. ",
    hand.length ? `You were dealt ${dealtOrder(hand).map(cardSymbol).join(" ")}.` : "",
    h("span", { "data-region": "deal-verdict" }));
  if (seen && globalThis.crypto?.subtle) verify(key, seen);
}

/** Cards in the order the Python line prints them (sorted by face: with two decks the
 * twins side by side): clubs, diamonds, hearts, spades, each from the two up. */
function dealtOrder(cards) {
  const key = (card) => "CDHS".indexOf(card[1]) * 13 + "23456789TJQKA".indexOf(card[0]);
  return [...cards].sort((a, b) => key(a) - key(b));
}

/** The page's own check of the fingerprint (browsers offer SHA-256 on secure pages only). */
async function verify(key, seen) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const verdict = document.querySelector("[data-region=deal-verdict]");
  verdict.dataset.matches = String(hex === seen);
  verdict.textContent = hex === seen
    ? " This page worked out the key's SHA-256 as well: it matches the fingerprint."
    : " This page worked out the key's SHA-256: it does not match the fingerprint.";
}
