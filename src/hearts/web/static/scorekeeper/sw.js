// Service worker: keeps the scorekeeper's files so the page opens with no network.
// Stale-while-revalidate: answer from the cache at once, refresh the cache in the background.

// The server writes the hash of the scorekeeper's files in place of "dev", so any change to
// them is a new worker with a new cache, filled whole: a phone never mixes old and new modules.
const VERSION = "scorekeeper-dev";
const FILES = [
  "/scorekeeper",
  "/scorekeeper/scorekeeper.css",
  "/scorekeeper/main.js",
  "/scorekeeper/model.js",
  "/scorekeeper/store.js",
  "/scorekeeper/dom.js",
  "/scorekeeper/setup.js",
  "/scorekeeper/entry.js",
  "/scorekeeper/board.js",
  "/scorekeeper/icon.svg",
  "/scorekeeper/manifest.webmanifest",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(VERSION)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("scorekeeper-") && key !== VERSION).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (!(url.pathname === "/scorekeeper" || url.pathname.startsWith("/scorekeeper/"))) return;
  const key = url.pathname === "/scorekeeper/" ? "/scorekeeper" : url.pathname;
  event.respondWith(
    caches.open(VERSION).then(async (cache) => {
      const cached = await cache.match(key);
      const fresh = fetch(event.request)
        .then((response) => {
          if (response.ok) cache.put(key, response.clone());
          return response;
        })
        .catch(() => null);
      if (cached) {
        event.waitUntil(fresh);
        return cached;
      }
      const response = await fresh;
      return response ?? new Response("Offline, and this page was never loaded here.", { status: 503 });
    }),
  );
});
