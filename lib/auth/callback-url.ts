/**
 * Where to send a browser after signing in or out: `value` resolved against the site's origin as a browser would
 * (tabs and newlines dropped, backslashes read as slashes, `//host` as another host), kept only when it stays on the
 * site, and then only its path and query. Anything else is `fallback`. The one check for every such redirect: the
 * sign-in page and next-auth's own (lib/auth/config.ts).
 */
export function safeCallbackPath(value: unknown, siteUrl: string, fallback = '/admin'): string {
  const raw: unknown = Array.isArray(value) ? value[0] : value
  if (typeof raw !== 'string' || raw === '') return fallback
  const site = new URL(siteUrl)
  let url: URL
  try {
    url = new URL(raw, site)
  } catch {
    return fallback
  }
  if (url.origin !== site.origin) return fallback
  // `/a/..//evil.example` resolves to the path `//evil.example`, which a browser reads as another host: one slash.
  return `/${url.pathname.replace(/^\/+/, '')}${url.search}`
}
