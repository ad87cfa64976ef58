// Path routing under /console: /console/<page>/<rest...>; links push history entries, the back button works.
import { useEffect, useState } from 'react';

export const BASE = '/console';

export interface Route { page: string; rest: string[] }

/** What every page of the registry (../pages.ts) is given. */
export interface PageProps { route: Route }

export function parseRoute(pathname: string): Route {
  const parts = pathname.startsWith(BASE) ? pathname.slice(BASE.length).split('/').filter(Boolean).map(decodeURIComponent) : [];
  return { page: parts[0] ?? '', rest: parts.slice(1) };
}

export const href = (...parts: string[]): string => [BASE, ...parts.map(encodeURIComponent)].join('/');

export function navigate(to: string): void {
  if (to === location.pathname) return;
  history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.pathname));
    window.addEventListener('popstate', on);
    return () => window.removeEventListener('popstate', on);
  }, []);
  return route;
}
