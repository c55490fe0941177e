/**
 * The words of a link's URL, as strategies read them (a URL that names the topic is worth following). The evaluator
 * works them out with the page's links (LinkFeature.urlTerms), where the language data is; a strategy tokenizes a URL
 * itself only for links made elsewhere.
 */
import { tokenize } from './tokenize';

/** URLs whose words are kept: a site's navigation links appear on every one of its pages. */
const KEPT = 20_000;
const kept = new Map<string, readonly string[]>();

/**
 * The words of a URL's host-less path and query: split on / - _ . ? = & + and other punctuation, camelCase and
 * letter/digit boundaries, then tokenized (stop words out, stemmed) like page text. 'index' and file extensions stay:
 * they are cheap and a learner can learn to ignore them. The list is shared (frozen): copy it to change it.
 */
export function urlTerms(url: string, language = 'en'): readonly string[] {
  const key = `${language} ${url}`;
  let terms = kept.get(key);
  if (terms === undefined) {
    terms = Object.freeze(urlWords(url, language));
    if (kept.size >= KEPT) kept.clear();
    kept.set(key, terms);
  }
  return terms;
}

function urlWords(url: string, language: string): string[] {
  let path: string;
  try {
    const u = new URL(url);
    path = decodeURIComponent(`${u.pathname} ${u.search}`);
  } catch {
    path = url;
  }
  const spaced = path
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)|(\d)([A-Za-z])/g, '$1$3 $2$4')
    .replace(/[/\-_.?=&+%~:;,!*'()[\]#@$]+/g, ' ');
  return tokenize(spaced, language);
}
