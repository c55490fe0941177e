/** docs/screenshots holds exactly the views its manifest lists, per browser and scheme (cli/screenshots.ts makes them). */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = path.join(import.meta.dirname, '../../docs/screenshots');

interface Manifest {
  browsers: string[];
  schemes: string[];
  views: { name: string; what: string }[];
}

describe('docs/screenshots', () => {
  it('has a PNG for every view in the manifest, in every browser and scheme, and no other', () => {
    const manifest = JSON.parse(readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.views.length).toBeGreaterThan(0);
    const expected = manifest.browsers.flatMap((b) =>
      manifest.views.flatMap((v) => manifest.schemes.map((s) => `${b}/${v.name}-${s}.png`)),
    );
    const present = readdirSync(DIR, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.png'))
      .map((f) => f.split(path.sep).join('/'));
    expect(present.sort()).toEqual(expected.sort());
  });
});
