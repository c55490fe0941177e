import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { staleBuildReason } from '../../cli/build-freshness';

describe("npm start's build reuse", () => {
  const root = mkdtempSync(path.join(tmpdir(), 'forager-build-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const touch = (file: string, seconds: number) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'x');
    utimesSync(file, seconds, seconds);
  };

  it('builds when there is no build, reuses one newer than every input, rebuilds when an input is newer', () => {
    const out = path.join(root, '.output/chrome-mv3');
    touch(path.join(root, 'lib/engine/deep/a.ts'), 1_000);
    touch(path.join(root, 'wxt.config.ts'), 1_000);
    expect(staleBuildReason(root, out)).toBe('no build yet');
    touch(path.join(out, 'manifest.json'), 2_000);
    expect(staleBuildReason(root, out)).toBeNull();
    // A file outside the inputs (a test) changes nothing.
    touch(path.join(root, 'test/x.test.ts'), 3_000);
    expect(staleBuildReason(root, out)).toBeNull();
    touch(path.join(root, 'lib/engine/deep/a.ts'), 3_000);
    expect(staleBuildReason(root, out)).toBe(`${path.join('lib', 'engine', 'deep', 'a.ts')} changed since the last build`);
  });
});
