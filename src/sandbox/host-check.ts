/**
 * DNS rebinding guard: a web page on evil.example can point its own name at 127.0.0.1 and
 * then read the sandbox page's API from the victim's browser. The browser still sends
 * `Host: evil.example`, so the sandbox answers only requests addressed to a loopback name or
 * to the host it was configured to listen on.
 */

/** The host name of a Host header, lower-case, without port or IPv6 brackets. */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  const colon = h.lastIndexOf(':');
  return colon >= 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
}

function isLoopback(name: string): boolean {
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

/** Whether a request with this Host header may be answered; `configured` is the listen host. */
export function isAllowedHost(header: string | undefined, configured?: string): boolean {
  if (!header) return false;
  const name = hostName(header);
  if (isLoopback(name)) return true;
  const own = configured ? hostName(configured.includes(':') ? `[${configured}]` : configured) : '';
  return own !== '' && own !== '0.0.0.0' && own !== '::' && name === own;
}
