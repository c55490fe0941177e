/**
 * Google's robots.txt test suite (google/robotstxt robots_test.cc, Apache-2.0; test/fixtures/robots/README.md), every
 * allow/disallow case asked of the crawler's own robots check: RobotsCache.verdict, what the fetcher asks before each
 * request, given the case's robots.txt as the site's answer. Where Forager answers otherwise than Google, the data
 * says what Forager answers and why.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RobotsCache } from '../../lib/engine/fetch/robots';

type Text = string | (string | { repeat: string; times: number })[];
interface GoogleCase {
  test: string;
  line: number;
  robots: Text;
  agent: string;
  url: Text;
  google: boolean;
  expected?: boolean;
  reason?: string;
}

const data = JSON.parse(readFileSync(new URL('../fixtures/robots/google-robotstxt-cases.json', import.meta.url), 'utf8')) as {
  source: string;
  licence: string;
  cases: GoogleCase[];
};

function text(value: Text): string {
  if (typeof value === 'string') return value;
  return value.map((part) => (typeof part === 'string' ? part : part.repeat.repeat(part.times))).join('');
}

async function forager(c: GoogleCase): Promise<boolean> {
  const body = text(c.robots);
  const robots = new RobotsCache({
    fetch: async () => new Response(body, { status: 200, headers: { 'content-type': 'text/plain' } }),
  });
  return (await robots.verdict(text(c.url), c.agent)).allowed;
}

describe("Google's robots.txt test suite against the crawler's robots check", () => {
  it('holds all 145 cases of robots_test.cc, with a reason wherever Forager differs', () => {
    expect(data.source).toContain('google/robotstxt');
    expect(data.licence).toContain('Apache-2.0');
    expect(data.cases).toHaveLength(145);
    for (const c of data.cases) {
      const differs = c.expected !== undefined;
      expect(differs && c.expected === c.google, `${c.test}:${c.line}`).toBe(false);
      expect(Boolean(c.reason), `${c.test}:${c.line} needs a reason exactly when it differs`).toBe(differs);
    }
  });

  it.each(data.cases.map((c) => [`${c.test}:${c.line}`, c] as const))('%s', async (_name, c) => {
    expect(await forager(c)).toBe(c.expected ?? c.google);
  });

  it('differs from Google on 10 cases, each for its stated reason', () => {
    const differences = data.cases.filter((c) => c.expected !== undefined).map((c) => `${c.test}:${c.line}`);
    expect(differences).toEqual([
      'GoogleOnly_SystemTest:42',
      'GoogleOnly_SystemTest:45',
      'GoogleOnly_SystemTest:52',
      'GoogleOnly_AcceptUserAgentUpToFirstSpace:247',
      'ID_Encoding:420',
      'ID_Encoding:431',
      'ID_Encoding:442',
      'GoogleOnly_IndexHTMLisDirectory:506',
      'GoogleOnly_LineTooLong:539',
      'GoogleOnly_LineTooLong:566',
    ]);
  });
});
