/**
 * No language data, in the extension's service worker (wxt.config.ts builds the background with this module in
 * place of ./language-sources.ts; all three export the same names). The service worker cannot import a chunk when
 * it needs one, and carrying every stop list, stemmer and the detector (1.5 MB) would make every start slower: its
 * text analysis is done by the evaluator Worker instead (Topic.analysis, LinkFeature.urlTerms). Asking for data here
 * is a bug, and throws saying so, rather than analysing text without stop words or stems.
 */
import type { Detector, Source, Stemmer } from './language-types';

/** Thrown when this build is asked for language data. */
export class LanguageDataAbsent extends Error {
  constructor(readonly needs: string) {
    super(`no language data in this build (${needs}): text analysis belongs in the evaluator`);
    this.name = 'LanguageDataAbsent';
  }
}

const absent =
  <T>(needs: string): Source<T> =>
  () => {
    throw new LanguageDataAbsent(needs);
  };

/** The languages ./language-sources.ts has a stemmer for (the tokenizer's choices depend on which do). */
const STEMMED = 'ar bg da de el en es fi fr ga hi hu hy id it lt ne nl no pt ro ru sr sv ta tr uk'.split(' ');

export const STEMMER_SOURCES: Readonly<Record<string, Source<Stemmer>>> = Object.fromEntries(
  STEMMED.map((base) => [base, absent<Stemmer>(`stem:${base}`)]),
);

/** Every stop list asked for throws (none is silently missing: text would keep its stop words). */
export function stopListSource(name: string): Source<readonly string[]> | undefined {
  return absent(`stop:${name}`);
}

export const detectorSource: Source<Detector> = absent('detector');
