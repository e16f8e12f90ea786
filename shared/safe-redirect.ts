// The one check of where the console may send a browser after sign-in (and
// wherever else a target comes from a request: ?next=, next-auth's
// callbackUrl). A target is resolved as a URL against the console's origin,
// as the browser itself would resolve it, and kept only when its origin is
// the console's; anything else (another host, "//evil", "/\evil", a scheme
// such as javascript:, tabs or newlines inside, text that is no URL) gives
// the fallback. Comparing strings ("starts with / and not //") misses the
// spellings a browser reads as another host; comparing resolved origins does
// not. Browser-safe: no server code.

/** Characters a URL parser drops or that end a header line: a target holding one is refused outright. */
function holdsControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/**
 * The target as an absolute URL on `origin`, or the fallback (resolved on
 * `origin` too). Absolute, so that a path such as "//evil" that a
 * same-origin URL may still carry is never read as a host again.
 */
export function sameOriginTarget(target: string | null | undefined, origin: string, fallback = "/"): string {
  const base = new URL(origin);
  const home = new URL(fallback, base).href;
  if (!target || target.length > 2000 || holdsControl(target)) return home;
  let url: URL;
  try {
    url = new URL(target, base);
  } catch {
    return home;
  }
  if (url.origin !== base.origin || url.username || url.password) return home;
  return url.href;
}
