/**
 * What relevance feedback costs the evaluator: the bench's pages (bench/evaluate.ts loadBenchPages)
 * evaluated against their topic and against the same topic carrying ten judgements' feedback (five up, five down:
 * the term profiles of ten of the pages, up to FEEDBACK_TERMS more topic terms), interleaved in one process, the order
 * alternating. Prints per-page medians side by side and the ratios of the sums of medians and of minimums.
 *
 * Run: npx tsx bench/feedback.ts        (REPS=n for more repetitions)
 */
import { performance } from 'node:perf_hooks';
import { evaluatePage, termProfile, withFeedback } from '../lib/engine';
import { loadBenchPages } from './evaluate';
import { median } from './stats';

const REPS = Math.max(10, Number(process.env.REPS) || 60);
const pages = loadBenchPages();
const judged = pages.slice(0, 10).map((p, i) => ({
  value: (i % 2 === 0 ? 1 : -1) as 1 | -1,
  terms: termProfile(evaluatePage({ url: 'https://example.com/j', body: p.body, topic: p.topic }).terms),
}));
const sums = { plain: 0, judged: 0, plainMin: 0, judgedMin: 0 };
console.log(`${'page (100 KB)'.padEnd(60)} ${'plain ms'.padStart(9)} ${'judged ms'.padStart(10)}`);
for (const p of pages) {
  const plain = { url: 'https://example.com/p', body: p.body, contentType: 'text/html; charset=utf-8', topic: p.topic };
  const withJudgements = { ...plain, topic: withFeedback(p.topic, judged) };
  for (let i = 0; i < 5; i++) {
    evaluatePage(plain);
    evaluatePage(withJudgements);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < REPS; i++) {
    // Alternating which goes first, so neither always runs on caches the other warmed.
    for (const [input, out] of i % 2
      ? ([
          [plain, a],
          [withJudgements, b],
        ] as const)
      : ([
          [withJudgements, b],
          [plain, a],
        ] as const)) {
      const t = performance.now();
      evaluatePage(input);
      out.push(performance.now() - t);
    }
  }
  sums.plain += median(a);
  sums.judged += median(b);
  sums.plainMin += Math.min(...a);
  sums.judgedMin += Math.min(...b);
  console.log(`${p.name.slice(0, 60).padEnd(60)} ${median(a).toFixed(2).padStart(9)} ${median(b).toFixed(2).padStart(10)}`);
}
console.log(
  `\n${pages.length} pages, ${REPS} interleaved repetitions each: sum of medians ${sums.plain.toFixed(1)} ms plain, ` +
    `${sums.judged.toFixed(1)} ms judged (ratio ${(sums.judged / sums.plain).toFixed(3)}); ` +
    `ratio of the sums of minimums ${(sums.judgedMin / sums.plainMin).toFixed(3)}`,
);
