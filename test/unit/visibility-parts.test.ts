/**
 * The pure parts of the browser's visibility check (lib/app/serp): colour arithmetic, clip-path shapes, the results
 * column; and the hostile-web suite's table. The check as a whole runs in real browsers (test/e2e/hostile.test.ts,
 * test/e2e/serp-reader.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { contrastRatio, parseColour } from '../../lib/app/serp/colour';
import { clipPathBox } from '../../lib/app/serp/geometry';
import { outsideColumn } from '../../lib/app/serp/rendered';
import { formatTable, rowPasses, tabulate } from '../hostile/suite';

describe('colours', () => {
  it('reads computed colours; transparent is null, what it cannot read undefined', () => {
    expect(parseColour('rgb(26, 13, 171)')).toEqual({ r: 26, g: 13, b: 171, a: 1 });
    expect(parseColour('rgba(0, 0, 0, 0.5)')).toEqual({ r: 0, g: 0, b: 0, a: 0.5 });
    expect(parseColour('rgba(0, 0, 0, 0)')).toBeNull();
    expect(parseColour('transparent')).toBeNull();
    expect(parseColour('color(srgb 1 1 1 / 50%)')).toEqual({ r: 255, g: 255, b: 255, a: 0.5 });
    expect(parseColour('oklch(0.7 0.1 200)')).toBeUndefined();
  });

  it('contrast: the same colour is 1, black on white 21, faint ink on its background near 1', () => {
    const white = { r: 255, g: 255, b: 255, a: 1 };
    expect(contrastRatio(white, white)).toBeCloseTo(1);
    expect(contrastRatio({ r: 0, g: 0, b: 0, a: 1 }, white)).toBeCloseTo(21);
    expect(contrastRatio({ r: 0, g: 0, b: 0, a: 0.02 }, white)).toBeLessThan(1.25);
    // Google's grey captions stay well above the threshold.
    expect(contrastRatio(parseColour('rgb(112, 117, 122)')!, white)).toBeGreaterThan(4);
  });
});

describe('clip-path shapes', () => {
  const box = { left: 100, top: 200, right: 300, bottom: 240 };
  it('a polygon with (almost) no area clips to nothing; a real one to its bounds', () => {
    expect(clipPathBox('polygon(0px 0px, 1px 0px, 1px 1px)', box)).toEqual({ left: 0, top: 0, right: 0, bottom: 0 });
    expect(clipPathBox('polygon(0% 0%, 100% 0%, 100% 100%, 0% 100%)', box)).toEqual(box);
  });
  it('inset, circle and ellipse; unknown shapes are left to hit testing', () => {
    expect(clipPathBox('inset(50%)', box)).toEqual({ left: 200, top: 220, right: 200, bottom: 220 });
    expect(clipPathBox('inset(0px 10px round 4px)', box)).toEqual({ left: 110, top: 200, right: 290, bottom: 240 });
    expect(clipPathBox('circle(0px at 50% 50%)', box)).toEqual({ left: 200, top: 220, right: 200, bottom: 220 });
    expect(clipPathBox('ellipse(10px 5px at 0px 0px)', box)).toEqual({ left: 90, top: 195, right: 110, bottom: 205 });
    expect(clipPathBox('url("#m")', box)).toBeNull();
  });
});

describe('the results column', () => {
  const el = (name: string) => ({ name }) as unknown as Element;
  const at = (top: number) => [{ left: 0, right: 100, top, bottom: top + 20 }];
  it('leaves out a result beyond a blank stretch longer than the gap, keeps one with things drawn in between', () => {
    const [a, b, c, far] = ['a', 'b', 'c', 'far'].map(el);
    const seen = new Map([
      [far, at(60_000)],
      [a, at(100)],
      [b, at(300)],
      [c, at(5_000)],
      [el('unseen'), []],
    ]);
    const blank = (top: number, bottom: number, e: Element) => (e === c ? 500 : bottom - top);
    expect([...outsideColumn(seen, 2_000, blank)]).toEqual([far]);
  });
});

describe('the hostile-web table', () => {
  it('lines up targets per technique, marks what is over its bound, dashes what does not apply', () => {
    const entry = { id: 'hidden-links', title: '', targets: [], run: async () => ({ outcomes: [], problems: [] }) };
    const rows = tabulate([
      { entry, target: 'chromium', run: { outcomes: [{ technique: 'z-behind', reached: 0, allowed: 0 }], problems: [] } },
      { entry, target: 'firefox', run: { outcomes: [{ technique: 'z-behind', reached: 1, allowed: 0 }], problems: [] } },
    ]);
    expect(rows).toEqual([{ entry: 'hidden-links', technique: 'z-behind', allowed: 0, reached: { chromium: 0, firefox: 1 } }]);
    expect(rowPasses(rows[0])).toBe(false);
    expect(formatTable(rows).split('\n')[2]).toBe('hidden-links  z-behind   0         1        -    0        OVER');
  });
});
