// The service worker: the shell from its cache first (then refreshed), catalog answers and
// clips from the network first with the cache as the fallback, so what was seen once works
// offline. Per-learner answers are never cached here (they are Cache-Control: no-store).
const SHELL = "vocab-shell-v12", DATA = "vocab-data-v1";
const FILES = ["/", "/index.html", "/style.css", "/app.js", "/api.js", "/charts.js", "/offline.js", "/i18n.js", "/games.js", "/say.js", "/classes.js", "/pictures.js", "/icon.svg", "/manifest.webmanifest"];

// The categories at every level are small and the first thing a child opens: kept from the start.
const CATEGORIES = ["/v1/categories", "/v1/categories?level=starters", "/v1/categories?level=movers", "/v1/categories?level=flyers"];

self.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([
    caches.open(SHELL).then((cache) => cache.addAll(FILES)),
    caches.open(DATA).then((cache) => cache.addAll(CATEGORIES)).catch(() => {}),
  ]).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== SHELL && k !== DATA).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

async function shellFirst(request) {
  const cache = await caches.open(SHELL);
  const hit = await cache.match(request, { ignoreSearch: true });
  const refresh = fetch(request).then((response) => {
    if (response.ok) cache.put(request, response.clone());
    return response;
  }).catch(() => null);
  return hit ?? (await refresh) ?? Response.error();
}

async function networkFirst(request) {
  const cache = await caches.open(DATA);
  try {
    const response = await fetch(request);
    // A signed-in search answer (no-store) holds the learner's library: never kept on the device.
    const private_ = /no-store/.test(response.headers.get("Cache-Control") ?? "");
    if (response.ok && response.status === 200 && !private_) cache.put(request, response.clone());
    return response;
  } catch (e) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw e;
  }
}

async function keptFirst(request) {
  const cache = await caches.open(DATA);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname.startsWith("/v1/me") || url.pathname.startsWith("/v1/session")) return;
  if (url.pathname.startsWith("/v1/")) { event.respondWith(networkFirst(event.request)); return; }
  // A picture file changes only with a new import of its set: once seen, kept for offline games.
  if (url.pathname.startsWith("/pictures/") || url.pathname.startsWith("/letters/")) { event.respondWith(keptFirst(event.request)); return; }
  if (FILES.includes(url.pathname)) event.respondWith(shellFirst(event.request));
});

// A page asks for the clips it may play to be kept: its due cards for offline review, a game
// round's, a category page's. They are fetched ahead of any tap (X-Vocab-Ahead: the server makes
// such clips one at a time, so the word a child taps finds a voice free, and is made at once).
function keep(cache, url) {
  return fetch(new Request(url, { headers: { "X-Vocab-Ahead": "1" } }))
    .then((response) => (response.ok ? cache.put(url, response) : undefined)).catch(() => {});
}

self.addEventListener("message", (event) => {
  if (event.data?.type === "keep" && Array.isArray(event.data.urls)) {
    event.waitUntil(caches.open(DATA).then((cache) => Promise.all(event.data.urls.map((u) => keep(cache, u)))));
  }
});
