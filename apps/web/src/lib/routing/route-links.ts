/** The attribute that marks a plain anchor as a link inside the console. */
export const ROUTE_LINK = 'data-route-link';

type Navigator = { navigate(to: string): unknown };

/**
 * Follows plain anchors marked with `data-route-link` inside the single-page console: a
 * table draws one link per row and column, and react-router's `<Link>` resolves the path,
 * builds a click handler and reads the router's context for each, which was a tenth of the
 * time fifty device rows took to draw. One listener on the document does the same for all
 * of them: a plain left click goes through the router; a click with a modifier, another
 * button or a `target` is left to the browser (new tab, new window), as `<Link>` leaves it.
 * Returns the function that removes the listener.
 */
export function followRouteLinks(router: Navigator, root: Document = document): () => void {
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.(`a[${ROUTE_LINK}]`);
    if (!(anchor instanceof HTMLAnchorElement) || (anchor.target && anchor.target !== '_self')) return;
    // Only addresses of this console, as the browser reads them ('//host' and '/\host' name
    // another site): anything else is the browser's to follow.
    const target = new URL(anchor.href, root.baseURI);
    if (target.origin !== new URL(root.baseURI).origin) return;
    event.preventDefault();
    router.navigate(`${target.pathname}${target.search}${target.hash}`);
  };
  root.addEventListener('click', onClick);
  return () => root.removeEventListener('click', onClick);
}
