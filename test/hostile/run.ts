/**
 * `npm run hostile [entry…] [--targets chromium,firefox,cli]`: runs every hostile-web entry (test/hostile/entries)
 * against each target it applies to, one browser at a time, and prints what reached the loopback server per
 * technique and target. Exits 1 when any technique caused more requests than it is allowed, or a run failed.
 * Needs the e2e packages (`npm run zip:e2e`, which the npm script runs first).
 */
import { ENTRIES } from './entries';
import { type EntryRun, formatTable, type HostileEntry, rowPasses, TARGETS, type Target, tabulate } from './suite';

function parseArgs(argv: string[]): { ids: string[]; targets: Target[] } {
  const ids: string[] = [];
  let targets: Target[] = TARGETS;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--targets') {
      targets = (argv[++i] ?? '').split(',').filter(Boolean) as Target[];
      const unknown = targets.filter((t) => !TARGETS.includes(t));
      if (unknown.length) throw new Error(`unknown targets: ${unknown.join(', ')} (known: ${TARGETS.join(', ')})`);
    } else ids.push(argv[i]);
  }
  const missing = ids.filter((id) => !ENTRIES.some((e) => e.id === id));
  if (missing.length) throw new Error(`unknown entries: ${missing.join(', ')} (known: ${ENTRIES.map((e) => e.id).join(', ')})`);
  return { ids, targets };
}

async function main(): Promise<number> {
  const { ids, targets } = parseArgs(process.argv.slice(2));
  const entries = ENTRIES.filter((e) => ids.length === 0 || ids.includes(e.id));
  const runs: { entry: HostileEntry; target: Target; run: EntryRun }[] = [];
  const failures: string[] = [];
  for (const entry of entries) {
    for (const target of entry.targets.filter((t) => targets.includes(t))) {
      process.stderr.write(`${entry.id} on ${target}…\n`);
      try {
        const run = await entry.run(target);
        runs.push({ entry, target, run });
        for (const p of run.problems) failures.push(`${entry.id} on ${target}: ${p}`);
      } catch (e) {
        failures.push(`${entry.id} on ${target}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  const rows = tabulate(runs);
  console.log(formatTable(rows));
  const over = rows.filter((r) => !rowPasses(r));
  console.log(
    `\n${rows.length} techniques, ${over.length} over their bound; requests to loopback in all: ${rows.reduce((n, r) => n + Object.values(r.reached).reduce((a, b) => (a ?? 0) + (b ?? 0), 0)!, 0)}`,
  );
  for (const f of failures) console.log(`run problem: ${f}`);
  return over.length > 0 || failures.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  },
);
