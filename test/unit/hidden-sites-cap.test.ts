/** The hidden-site list of a crawl is bounded like every other list that enters from a message: in number and length. */
import { describe, expect, it } from 'vitest';
import { MAX_HIDDEN_SITES, toggleSite } from '../../lib/app/rules/feedback';

describe('hidden sites are capped', () => {
  it('refuses a site name over 300 characters and an 10,001st hidden site; showing one again still works', () => {
    expect(() => toggleSite([], `https://${'a'.repeat(300)}.example`, true)).toThrow('A site name is at most 300 characters.');
    const full = Array.from({ length: MAX_HIDDEN_SITES }, (_, i) => `https://s${i}.example`);
    expect(() => toggleSite(full, 'https://one-more.example', true)).toThrow(/hides at most 10000 sites/);
    expect(toggleSite(full, 'https://s0.example', false).length).toBe(MAX_HIDDEN_SITES - 1);
    expect(toggleSite(full, 'https://s1.example', true).length).toBe(MAX_HIDDEN_SITES); // already hidden: no growth
  });
});
