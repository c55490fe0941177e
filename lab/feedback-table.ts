/**
 * The relevance-feedback table: recall-area with and without the simulated user, per strategy, paired per
 * topic, from one or more `npm run lab -- run --json` files (a run split by topic merges here).
 *
 *   npx tsx lab/feedback-table.ts out-1.json out-2.json ... [log-1.txt ...] [--metric recall-area] [--task 2]
 *
 * A strategy label `X:feedback.every=..,feedback.k=..` is paired with the label `X` (the same strategy without the
 * user). Prints mean ± standard error over topics of each side, the paired difference with its standard error, and
 * wins / ties / losses. With the runs' logs (their stderr), also the result list at the crawl's end (new pages at or
 * above the relevance cut, as the extension lists them): rows and false positives (rows that are not targets), with
 * a user who judges nothing (`feedback.k=0`) against one who judges.
 */
import { readFileSync } from 'node:fs';

interface Result {
  task: number;
  strategy: string;
  metric: string;
  budgets: Record<string, { perTopic: Record<string, number> }>;
}

const args = process.argv.slice(2);
// Log files (.txt) carry the `[feedback]` lines of lab/run.ts: the result list at each crawl's end.
const logs = args.filter((a) => a.endsWith('.txt'));
for (let i = args.length - 1; i >= 0; i--) if (args[i].endsWith('.txt')) args.splice(i, 1);
const opt = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const metric = opt('metric', 'recall-area');
const task = Number(opt('task', '2'));
if (args.length === 0) throw new Error('give one or more lab results JSON files');

// strategy -> budget -> topic -> value
const values = new Map<string, Map<string, Map<string, number>>>();
for (const file of args) {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { results: Result[] };
  for (const r of doc.results) {
    if (r.metric !== metric || r.task !== task) continue;
    const byBudget = values.get(r.strategy) ?? new Map<string, Map<string, number>>();
    values.set(r.strategy, byBudget);
    for (const [budget, b] of Object.entries(r.budgets)) {
      const byTopic = byBudget.get(budget) ?? new Map<string, number>();
      byBudget.set(budget, byTopic);
      for (const [topic, v] of Object.entries(b.perTopic)) byTopic.set(topic, v);
    }
  }
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const se = (xs: number[]) => {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1) / xs.length);
};
const f = (x: number) => x.toFixed(3);

console.log(`${metric}, Task ${task}: without -> with the simulated user, mean ± s.e. over topics, paired`);
console.log('| strategy | budget | topics | without | with | with - without | wins / ties / losses |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
/** The label of the same strategy without feedback: `X`, or `X:feedback.every=..,feedback.k=0` (a user who judges nothing). */
const withoutLabel = (label: string): string | undefined => {
  const colon = label.indexOf(':feedback.');
  if (colon < 0 || /feedback\.k=0\b/.test(label)) return undefined;
  const base = label.slice(0, colon);
  return values.has(base) ? base : [...values.keys()].find((l) => l.startsWith(`${base}:feedback.`) && /feedback\.k=0\b/.test(l));
};
for (const [label, withBudgets] of values) {
  const without = withoutLabel(label);
  if (!without) continue;
  const base = label.slice(0, label.indexOf(':feedback.'));
  const withoutBudgets = values.get(without);
  if (!withoutBudgets) continue;
  for (const [budget, withTopics] of withBudgets) {
    const withoutTopics = withoutBudgets.get(budget);
    if (!withoutTopics) continue;
    const topics = [...withTopics.keys()].filter((t) => withoutTopics.has(t));
    const a = topics.map((t) => withoutTopics.get(t)!);
    const b = topics.map((t) => withTopics.get(t)!);
    const d = topics.map((_, i) => b[i] - a[i]);
    const wins = d.filter((x) => x > 1e-9).length;
    const losses = d.filter((x) => x < -1e-9).length;
    console.log(
      `| ${base} | ${budget} | ${topics.length} | ${f(mean(a))} ± ${f(se(a))} | ${f(mean(b))} ± ${f(se(b))} | ` +
        `${d.length ? (mean(d) >= 0 ? '+' : '') + f(mean(d)) : '-'} ± ${f(se(d))} | ${wins} / ${topics.length - wins - losses} / ${losses} |`,
    );
  }
}

if (logs.length) {
  interface Line {
    topic: string;
    strategy: string;
    rows: number;
    falsePositives: number;
    up: number;
    down: number;
  }
  const lines: Line[] = [];
  for (const file of logs)
    for (const text of readFileSync(file, 'utf8').split('\n'))
      if (text.startsWith('[feedback] ')) lines.push(JSON.parse(text.slice('[feedback] '.length)) as Line);
  const byLabel = new Map<string, Map<string, Line>>();
  for (const l of lines) {
    const m = byLabel.get(l.strategy) ?? new Map<string, Line>();
    byLabel.set(l.strategy, m);
    m.set(l.topic, l);
  }
  console.log('');
  console.log(
    'The result list at the end of the crawl (new pages at or above the relevance cut, judged rows re-ranked and filtered), summed over topics',
  );
  console.log(
    '| strategy | topics | rows without | false positives without | rows with | false positives with | change in false positives | judged up / down |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [label, withTopics] of byLabel) {
    if (/feedback\.k=0\b/.test(label)) continue;
    const base = label.slice(0, label.indexOf(':feedback.'));
    const zero = [...byLabel.keys()].find((l) => l.startsWith(`${base}:feedback.`) && /feedback\.k=0\b/.test(l));
    if (!zero) continue;
    const withoutTopics = byLabel.get(zero)!;
    const topics = [...withTopics.keys()].filter((t) => withoutTopics.has(t));
    const sum = (m: Map<string, Line>, k: keyof Line) => topics.reduce((s, t) => s + (m.get(t)![k] as number), 0);
    const fpA = sum(withoutTopics, 'falsePositives');
    const fpB = sum(withTopics, 'falsePositives');
    console.log(
      `| ${base} | ${topics.length} | ${sum(withoutTopics, 'rows')} | ${fpA} | ${sum(withTopics, 'rows')} | ${fpB} | ` +
        `${fpA ? `${(((fpB - fpA) / fpA) * 100).toFixed(0)}%` : '-'} | ${sum(withTopics, 'up')} / ${sum(withTopics, 'down')} |`,
    );
  }
}
