import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('release documents', () => {
  it('package.json (hence the manifest and the package names) and CHANGELOG.md name the same version', () => {
    const { version } = JSON.parse(read('package.json')) as { version: string };
    const versions = [...read('CHANGELOG.md').matchAll(/^## (\d+\.\d+\.\d+)\b/gm)].map((m) => m[1]);
    expect(versions.length).toBeGreaterThan(0);
    expect(versions[0]).toBe(version);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('README links the privacy statement and the changelog', () => {
    const readme = read('README.md');
    expect(readme).toContain('(PRIVACY.md)');
    expect(readme).toContain('(CHANGELOG.md)');
  });
});
