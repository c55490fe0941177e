/**
 * The engine as each build of the extension has its language data (lib/engine/text/language-sources*.ts): 'static'
 * (Node, the pages), 'lazy' (the evaluator Worker: loaded on demand), 'absent' (the background: none). Call before
 * importing the modules under test afresh; {@link restoreLanguageSources} after each test.
 */
import { vi } from 'vitest';

const SOURCES = '../../lib/engine/text/language-sources';

export function useLanguageSources(sources: 'static' | 'lazy' | 'absent'): void {
  vi.resetModules();
  if (sources === 'lazy') vi.doMock(SOURCES, () => import('../../lib/engine/text/language-sources.lazy'));
  else if (sources === 'absent') vi.doMock(SOURCES, () => import('../../lib/engine/text/language-sources.absent'));
  else vi.doUnmock(SOURCES);
}

export function restoreLanguageSources(): void {
  vi.doUnmock(SOURCES);
  vi.resetModules();
}
