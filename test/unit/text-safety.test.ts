import { describe, expect, it } from 'vitest';
import { escapeBidiInJson, escapeHtml, oneLine, safeText } from '../../lib/app/rules/text-safety';
import { draftFromMenu, topicFromPage } from '../../lib/app/view/start-draft';

describe('text safety', () => {
  it('removes terminal escape sequences whole (CSI, OSC with BEL or ST, DCS, two-character escapes) and C0/C1 controls', () => {
    expect(safeText('a\u001b[31mred\u001b[0m b')).toBe('ared b');
    expect(safeText('a\u001b]0;window title\u0007b')).toBe('ab');
    expect(safeText('a\u001b]52;c;ZXZpbA==\u001b\\b')).toBe('ab');
    expect(safeText('\u001b]8;;https://phish.example\u001b\\link\u001b]8;;\u001b\\')).toBe('link');
    expect(safeText('a\u001bPq#0;1;2\u001b\\b\u001bcc\u001b7d')).toBe('abcd');
    expect(safeText('nul\u0000 del\u007f csi\u009b2J bell\u0007')).toBe('nul del csi2J bell');
    expect(safeText('tab\tand\nline\r\n')).toBe('tab\tand\nline\r\n');
    expect(safeText(42)).toBe('');
  });

  it('removes bidi embeddings, overrides and isolates, and keeps the implicit marks', () => {
    expect(safeText('invoice x\u202Egnp.exe')).toBe('invoice xgnp.exe');
    expect(safeText('\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069')).toBe('');
    expect(safeText('a\u200Eb\u200Fc')).toBe('a\u200Eb\u200Fc');
  });

  it('makes one line, escapes HTML, and writes bidi controls in JSON as escapes', () => {
    expect(oneLine(' a\u2028b\r\nc\t d ')).toBe('a b c d');
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const json = escapeBidiInJson(JSON.stringify({ t: 'x\u202Egnp' }));
    expect(json).toBe('{"t":"x\\u202egnp"}');
    expect(JSON.parse(json).t).toBe('x\u202Egnp');
  });

  it('keeps them out of the topics drafted from a page (a title is any page to choose)', () => {
    expect(topicFromPage({ title: 'Coffee x\u202Egnp.exe', headings: ['\u001b]0;owned\u0007Brewing'] })).toBe(
      'Coffee xgnp.exe Brewing',
    );
    expect(draftFromMenu({ pageUrl: 'https://e.example/', selectionText: 'beans \u2066roast\u2069' }, undefined).topic).toBe(
      'beans roast',
    );
  });
});
