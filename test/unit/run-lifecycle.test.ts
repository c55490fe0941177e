import { describe, expect, it, vi } from 'vitest';
import { ProgressWriter } from '../../lib/app/runner/progress-writer';
import { RUN_TRANSITIONS, RunLifecycle, type RunEvent, type RunState } from '../../lib/app/runner/run-lifecycle';
import { createMemoryStore } from '../../lib/app/store/memory-store';
import type { CrawlProgress, CrawlStore } from '../../lib/app/model/records';
import type { CrawlCheckpoint, PageResult } from '../../lib/engine/types';

describe('run lifecycle', () => {
  const play = (...events: RunEvent[]) => {
    const life = new RunLifecycle();
    const accepted = events.map((e) => life.fire(e));
    return { state: life.state, accepted, life };
  };

  it('goes through pause, pause point and end to a paused crawl, and can take a pause back before its point', () => {
    expect(play('pause', 'pause-point', 'end')).toMatchObject({ state: 'ended', accepted: [true, true, true] });
    expect(play('pause', 'resume').state).toBe('running');
    expect(play('pause', 'resume', 'pause', 'pause-point').state).toBe('detaching');
  });

  it('refuses what does not apply, changing nothing', () => {
    // A pause point without a pause; resume while running; resume once the run is detaching; anything after the end.
    expect(play('pause-point')).toMatchObject({ state: 'running', accepted: [false] });
    expect(play('resume')).toMatchObject({ state: 'running', accepted: [false] });
    expect(play('pause', 'pause-point', 'resume', 'stop')).toMatchObject({
      state: 'detaching',
      accepted: [true, true, false, false],
    });
    expect(play('stop', 'pause', 'resume')).toMatchObject({ state: 'stopping', accepted: [true, false, false] });
    expect(play('end', 'pause', 'stop', 'end').accepted).toEqual([true, false, false, false]);
  });

  it('says which states hold the crawl slot and which count as active', () => {
    const reach: Record<RunState, RunEvent[]> = {
      running: [],
      pausing: ['pause'],
      detaching: ['pause', 'pause-point'],
      stopping: ['stop'],
      ended: ['end'],
    };
    const states = Object.keys(RUN_TRANSITIONS) as RunState[];
    const life = (s: RunState) => {
      const { life, state } = play(...reach[s]);
      expect(state).toBe(s);
      return life;
    };
    expect(states.filter((s) => life(s).fetching)).toEqual(['running']);
    expect(states.filter((s) => life(s).active)).toEqual(['running', 'pausing']);
    // Every state but the last can end.
    expect(states.filter((s) => RUN_TRANSITIONS[s].end)).toEqual(['running', 'pausing', 'detaching', 'stopping']);
  });
});

// Only the fields the writer passes on; a crawl's checkpoint is resume state only (version 2).
const checkpoint = { version: 2, fetched: ['x', 'y'], inFlight: [] } as unknown as CrawlCheckpoint;
const page = (n: number): PageResult => ({
  url: `https://e.com/${n}`,
  title: '',
  snippet: '',
  score: 0.5,
  depth: 1,
  fetchedAt: n,
  isSeed: false,
});

function recordingStore(fail: () => boolean) {
  const base = createMemoryStore();
  const writes: CrawlProgress[] = [];
  const store: CrawlStore = {
    ...base,
    saveProgress: async (id, progress) => {
      await new Promise((r) => setTimeout(r, 2));
      if (fail()) throw new Error('disk full');
      writes.push(structuredClone(progress));
      return base.saveProgress(id, progress);
    },
  };
  return { store, writes, base };
}

describe('progress writer', () => {
  it('writes behind at most once per interval, with what is new and the resume state only', async () => {
    let now = 0;
    const { store, writes } = recordingStore(() => false);
    const failures: unknown[] = [];
    const writer = new ProgressWriter({
      store,
      crawlId: 'c',
      everyMs: 30,
      now: () => now,
      state: () => ({ checkpoint, patch: { updatedAt: now } }),
      onFailure: (e) => failures.push(e),
    });
    for (let i = 0; i < 10; i++) writer.addPage(page(i));
    expect(writes).toHaveLength(0); // behind the crawl: nothing written synchronously
    now = 30;
    // Wait for the write-behind itself (its timer is a real one), not for a fixed time: no sleep can be long enough
    // on a loaded machine.
    await vi.waitFor(() => expect(writes).toHaveLength(1), { timeout: 10_000, interval: 5 });
    expect(writes).toHaveLength(1);
    expect(writes[0].pages).toHaveLength(10);
    expect(writes[0].checkpoint).toEqual(checkpoint);
    writer.addPage(page(10));
    await writer.flush();
    expect(writes.map((w) => w.pages.length)).toEqual([10, 1]);
    expect(writer.pending).toBe(0);
    expect(failures).toEqual([]);
  });

  it('keeps the pages of a failed write for the next one, in order, and reports the failure', async () => {
    let failing = true;
    const { store, writes, base } = recordingStore(() => failing);
    const failures: unknown[] = [];
    const writer = new ProgressWriter({
      store,
      crawlId: 'c',
      everyMs: 0,
      now: () => 0,
      state: () => ({ checkpoint, patch: {} }),
      onFailure: (e) => failures.push(e),
    });
    writer.addPage(page(1));
    writer.addPage(page(2));
    await expect(writer.flush()).rejects.toThrow(/disk full/);
    writer.addPage(page(3));
    expect(writer.pending).toBe(3);
    failing = false;
    await writer.flush({ checkpoint: null, patch: { status: 'done' } });
    expect(writes).toHaveLength(1);
    expect(writes[0].pages.map((p) => p.fetchedAt)).toEqual([1, 2, 3]);
    expect(writes[0].checkpoint).toBeNull();
    expect(await base.countPages('c')).toBe(3);
    writer.stop();
    writer.addPage(page(4));
    await new Promise((r) => setTimeout(r, 10));
    expect(writes).toHaveLength(1); // stopped: no more background writes
  });
});
