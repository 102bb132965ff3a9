import { useEffect, useState } from 'preact/hooks';
import { BASE, placeOf, type Place } from './places';

export { hrefOf, linkHref, type Place } from './places';

const listeners = new Set<() => void>();

/** Moves to a page of the dashboard without reloading it (the session stays in the tab's memory). */
export function navigate(href: string): void {
  history.pushState(null, '', href);
  for (const listener of listeners) listener();
}

/** Moves without a history entry: the sign-in callback's address (code and state in it) is not one to come back to. */
export function replacePlace(href: string): void {
  history.replaceState(null, '', href);
  for (const listener of listeners) listener();
}

/** The current page, following navigate() and the browser's back and forward. */
export function usePlace(): Place {
  const [place, setPlace] = useState(() => placeOf(location.pathname));
  useEffect(() => {
    const update = () => setPlace(placeOf(location.pathname));
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return place;
}

/** Plain links that move inside the dashboard; a modified click (new tab) is left to the browser. */
export function followLink(event: MouseEvent): void {
  const anchor = (event.target as Element | null)?.closest('a');
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(BASE) || anchor.hasAttribute('download')) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
}
