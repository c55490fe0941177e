/** A page's address as "site › … › tail", the full URL on hover. */
import { useMemo } from 'preact/hooks';
import { displayLocation, oneLine } from '../../lib/app';

/** "site › … › tail" */
export function Location({ url }: { url: string }) {
  const loc = useMemo(() => displayLocation(url), [url]);
  return (
    <span class="loc" data-testid="result-url" title={oneLine(url)}>
      <span class="site">{loc.site}</span>
      {loc.elided && <span class="sep"> › …</span>}
      {loc.tail && (
        <>
          <span class="sep"> › </span>
          <span class="tail">{loc.tail}</span>
        </>
      )}
    </span>
  );
}
