/** A fetched and evaluated page as strategies receive it, for strategy tests: its score, links, depth and parent. */
import type { EvaluatedPage, LinkFeature } from '../../lib/engine/types';

export function evaluatedPage(
  url: string,
  score: number,
  links: LinkFeature[],
  at: { depth?: number; from?: string; isSeed?: boolean } = {},
): EvaluatedPage {
  return {
    url,
    requestedUrl: url,
    depth: at.depth ?? 1,
    ...(at.from !== undefined ? { from: at.from } : {}),
    isSeed: at.isSeed ?? false,
    links,
    evaluation: {
      score,
      title: url,
      snippet: '',
      links,
      terms: {},
      length: 0,
      charset: 'utf-8',
      baseUrl: url,
      robots: { noindex: false, nofollow: false },
    },
  };
}
