/**
 * A result's site icon, from the browser's own favicon cache and never from the network: Chrome serves the icons of
 * sites the user has visited at `_favicon/` (the `favicon` permission), and its grey globe for the others. Firefox
 * has no such cache for extensions, so there the icon is the site's first letter on a neutral disc: fetching
 * `/favicon.ico` would tell every listed site that the list was looked at.
 */
import { useMemo } from 'preact/hooks';
import { displayLocation } from '../../lib/app';

/** Chrome's favicon-cache address for a page, or undefined where there is none (Firefox, unit tests). */
function cachedFaviconUrl(pageUrl: string): string | undefined {
  if (import.meta.env.BROWSER !== 'chrome') return undefined;
  const runtime = (globalThis as { browser?: { runtime?: { getURL?(path: string): string } } }).browser?.runtime;
  if (!runtime?.getURL) return undefined;
  const url = new URL(runtime.getURL('/_favicon/'));
  url.searchParams.set('pageUrl', pageUrl);
  url.searchParams.set('size', '32');
  return url.href;
}

/** The site's first letter or digit, upper case ("?" when the name has none). */
export function siteLetter(url: string): string {
  const site = displayLocation(url).site.replace(/^www\./, '');
  return site.match(/[\p{L}\p{N}]/u)?.[0]?.toUpperCase() ?? '?';
}

/** 16 px, decorative (the location under the title names the site). */
export function SiteIcon({ url }: { url: string }) {
  const src = useMemo(() => cachedFaviconUrl(url), [url]);
  if (src) return <img class="site-icon" src={src} width={16} height={16} alt="" aria-hidden="true" data-testid="site-icon" />;
  return (
    <span class="site-icon letter" aria-hidden="true" data-testid="site-icon">
      {siteLetter(url)}
    </span>
  );
}
