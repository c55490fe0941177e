/** A corpus page for lab tests: its terms, its links (corpus positions), its length the sum of its term counts. */
import type { TermVector } from '../../lib/engine';
import type { CorpusDoc } from '../../lab/corpus';

export const corpusDoc = (id: string, terms: TermVector, links: number[] = []): CorpusDoc => ({
  id,
  title: id,
  heading: '',
  length: Object.values(terms).reduce((a, b) => a + b, 0),
  terms,
  links,
});
