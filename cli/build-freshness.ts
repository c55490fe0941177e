/**
 * Whether a build of the extension is current: its manifest is newer than every file the build reads (the
 * extension's code, its public files, the build's configuration and the locked packages). `npm start` reuses a
 * current build instead of spending a minute on the same one again.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What a build of the extension reads, relative to the project's root: folders are walked, files taken as they are. */
export const BUILD_INPUTS = [
  'entrypoints',
  'lib',
  'public',
  'wxt.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

/** The newest modification time (ms) among `inputs` under `root`, and the file that has it. */
export function newestInput(root: string, inputs: readonly string[] = BUILD_INPUTS): { file: string; mtimeMs: number } {
  let newest = { file: '', mtimeMs: 0 };
  const visit = (file: string) => {
    const stat = statSync(file);
    if (stat.isDirectory()) {
      for (const name of readdirSync(file)) visit(path.join(file, name));
    } else if (stat.mtimeMs > newest.mtimeMs) {
      newest = { file, mtimeMs: stat.mtimeMs };
    }
  };
  for (const input of inputs) {
    const file = path.join(root, input);
    if (existsSync(file)) visit(file);
  }
  return newest;
}

/**
 * Why the build in `outDir` must be made again, or null when it is current: no manifest there, or a newer input
 * (named, so the user sees what changed).
 */
export function staleBuildReason(root: string, outDir: string, inputs: readonly string[] = BUILD_INPUTS): string | null {
  const manifest = path.join(outDir, 'manifest.json');
  if (!existsSync(manifest)) return 'no build yet';
  const built = statSync(manifest).mtimeMs;
  const newest = newestInput(root, inputs);
  return newest.mtimeMs > built ? `${path.relative(root, newest.file)} changed since the last build` : null;
}
