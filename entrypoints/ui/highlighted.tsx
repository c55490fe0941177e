/** Text with the topic's words in <mark> elements built from segments, never from HTML strings. */
import { useMemo } from 'preact/hooks';
import { highlightSegments } from '../../lib/app';

/** Text with the topic's words in <mark>. */
export function Highlighted({ text, terms }: { text: string; terms: Set<string> }) {
  const segments = useMemo(() => highlightSegments(text, terms), [text, terms]);
  return <>{segments.map((s, i) => (s.mark ? <mark key={i}>{s.text}</mark> : s.text))}</>;
}
