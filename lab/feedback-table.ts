/**
 * The relevance-feedback table (issue 15): recall-area with and without the simulated user, per strategy, paired per
 * topic, from one or more `npm run lab -- run --json` files (a run split by topic merges here).
 *
 *   npx tsx lab/feedback-table.ts out-1.json out-2.json ... [--metric recall-area] [--task 2]
 *
 * A strategy label `X:feedback.every=..,feedback.k=..` is paired with the label `X` (the same strategy without the
 * user). Prints mean ± standard error over topics of each side, the paired difference with its standard error, and
 * wins / ties / losses.
 */
import { readFileSync } from 'node:fs';

interface Result {
  task: number;
  strategy: string;
  metric: string;
  budgets: Record<string, { perTopic: Record<string, number> }>;
}

const args = process.argv.slice(2);
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
for (const [label, withBudgets] of values) {
  const colon = label.indexOf(':feedback.');
  if (colon < 0) continue;
  const base = label.slice(0, colon);
  const withoutBudgets = values.get(base);
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
