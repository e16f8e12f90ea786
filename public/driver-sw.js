// The driver's app's service worker (registered by app/components/driver/
// driver-app.tsx with the scope /driver). Hand-written rather than Serwist or
// Workbox: their Next integrations hook webpack, and this app builds with
// Next 16's Turbopack; what is needed here is forty lines.
//
// It caches the app's code only: the /driver pages (which carry no data: the
// app reads everything through the driver app interface at run time), Next's
// hashed static files, the manifest and the icons. Nothing under
// /driver-app/ (the interface: orders, passengers, balances) is ever cached,
// and every other request passes through untouched.
const CACHE = "taxi-driver-app-v1";
const SHELL = ["/driver", "/driver/activate", "/driver/manifest.webmanifest", "/driver/icon-192.png", "/driver/icon-512.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => Promise.all(SHELL.map((url) => cache.add(new Request(url, { cache: "reload" })).catch(() => undefined))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("taxi-driver-app-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

function isAppPage(path) {
  return path === "/driver" || path.startsWith("/driver/");
}

async function networkFirst(request, fallback) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const cached = (await cache.match(request, { ignoreSearch: true })) || (fallback && (await cache.match(fallback)));
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  // The interface's replies (a passenger's data among them) are never cached.
  if (path === "/driver-app" || path.startsWith("/driver-app/")) return;
  if (path.startsWith("/_next/static/")) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" && isAppPage(path)) {
    event.respondWith(networkFirst(request, "/driver"));
  } else if (path.startsWith("/driver/") && /\.(png|webmanifest)$/.test(path)) {
    event.respondWith(cacheFirst(request));
  }
});
