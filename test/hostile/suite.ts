/**
 * The hostile-web suite's shape: each trick an attacker can play on Forager is an entry (one small file in
 * test/hostile/entries/, listed in entries/index.ts) that runs against the targets it applies to (Chromium, Firefox,
 * the command line) and says, per technique, how many requests reached the loopback server and how many are allowed
 * (0 for hidden links; a documented bound where one applies). `npm run hostile` (run.ts) runs them all and prints
 * the table; test/e2e specs run the same entries and assert on them.
 */

export type Target = 'chromium' | 'firefox' | 'cli';
export const TARGETS: Target[] = ['chromium', 'firefox', 'cli'];

/** What one technique of an entry did on one target. */
export interface Outcome {
  /** The technique, e.g. `z-behind` (unique within its entry). */
  technique: string;
  /** Requests that reached the loopback server because of it. */
  reached: number;
  /** The most it may cause (0 unless a bound is documented). */
  allowed: number;
}

/** What an entry's run on one target found: per technique, plus whether the run itself did what it must. */
export interface EntryRun {
  outcomes: Outcome[];
  /** Problems with the run itself (e.g. the visible results were not crawled, so silence proves nothing). */
  problems: string[];
}

export interface HostileEntry {
  /** Short name, e.g. `hidden-links`. */
  id: string;
  /** One line: what the attacker does. */
  title: string;
  /** The targets the trick applies to (a results-page trick does not apply to the command line). */
  targets: Target[];
  run(target: Target): Promise<EntryRun>;
}

/** One row of the table: an entry's technique and what reached loopback on each target. */
export interface Row {
  entry: string;
  technique: string;
  allowed: number;
  reached: Partial<Record<Target, number>>;
}

/** The rows of all runs, one per entry and technique, targets side by side. */
export function tabulate(runs: { entry: HostileEntry; target: Target; run: EntryRun }[]): Row[] {
  const rows = new Map<string, Row>();
  for (const { entry, target, run } of runs) {
    for (const o of run.outcomes) {
      const key = `${entry.id}\u0000${o.technique}`;
      const row = rows.get(key) ?? { entry: entry.id, technique: o.technique, allowed: o.allowed, reached: {} };
      row.reached[target] = o.reached;
      rows.set(key, row);
    }
  }
  return [...rows.values()];
}

/** Whether a row is within its bound on every target that ran. */
export const rowPasses = (row: Row) => Object.values(row.reached).every((n) => (n ?? 0) <= row.allowed);

/** The table as plain text: entry, technique, requests per target (`-` where the entry does not apply), allowed. */
export function formatTable(rows: Row[]): string {
  const header = ['entry', 'technique', ...TARGETS, 'allowed', ''];
  const lines = rows.map((r) => [
    r.entry,
    r.technique,
    ...TARGETS.map((t) => (r.reached[t] === undefined ? '-' : String(r.reached[t]))),
    String(r.allowed),
    rowPasses(r) ? 'ok' : 'OVER',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...lines.map(fmt)].join('\n');
}
