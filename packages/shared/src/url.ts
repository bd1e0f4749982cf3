/**
 * continue_url is honoured only if its host equals the current host (product §5).
 * Returns a same-origin path+query+hash to navigate to, or null.
 */
export function safeContinueUrl(candidate: string | null | undefined, currentOrigin: string): string | null {
  if (!candidate) return null;
  let url: URL;
  try {
    url = new URL(candidate, currentOrigin);
  } catch {
    return null;
  }
  const current = new URL(currentOrigin);
  if (url.host !== current.host || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
