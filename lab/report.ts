/**
 * The lab's outputs: a plain-text table for the terminal and a self-contained HTML report (inline SVG plots, no
 * scripts, no external resources) that opens offline. The JSON file is the LabResults object itself.
 */
import type { Comparison, MetricResult, TimeToTargets, TopicStatics } from './analysis';
import type { TaskId } from './topics';
import { meanSe } from './metrics';

export interface LabResults {
  format: 'forager-lab-results/1';
  meta: {
    createdAt: string;
    topicsFile: string;
    topics: string[];
    strategies: { label: string; name: string; params: Record<string, number | string | boolean> }[];
    tasks: TaskId[];
    budgets: number[];
    seeds: number[];
    maxBuffer: number;
    /** Times a transiently failed fetch was tried again (absent: results made before retries, which had none). */
    retries?: number;
    ks: number[];
    step: number;
    corpus: { sites: Record<string, number>; pages: number; hubs: number; description: string; name?: string };
    /** Which split of generated topics the table comes from ('tune', 'test', 'mixed'; 'none' for hand-made lists). */
    split?: { name: 'tune' | 'test' | 'mixed' | 'none'; tune: number; test: number };
    /** Crawls on the simulated network: model, seed, politeness, requests in flight, the time view. */
    network?: {
      model: string;
      description: string;
      seed: number;
      politenessMs: number;
      maxInFlight: number;
      seconds: number[];
      firstTargets: number[];
    };
    wallSeconds: number;
    /** CPU seconds of the whole run (all threads). */
    cpuSeconds?: number;
    crawls: number;
    pagesFetched: number;
    evaluations: number;
    evaluationCacheHits: number;
    /** Results merged from several runs' files (`report --from a.json --from b.json`): the files. */
    mergedFrom?: string[];
  };
  results: MetricResult[];
  timeToTargets?: TimeToTargets[];
  comparisons: Comparison[];
  statics: TopicStatics[];
  crawls: {
    topic: string;
    task: TaskId;
    strategy: string;
    seed: number;
    pages: number;
    errors: number;
    done: string;
    elapsedMs: number;
  }[];
}

const TASK_NAMES: Record<number, string> = { 1: 'Task 1 (seeds: examples)', 2: 'Task 2 (seeds: neighbors)' };

export function fmt(v: number, digits = 3): string {
  return Number.isFinite(v) ? v.toFixed(digits) : '—';
}

function fmtSeconds(s: number): string {
  return Number.isFinite(s) ? `${s < 10 ? s.toFixed(1) : s.toFixed(0)} s` : 'never';
}

/** One line saying where the numbers come from: corpus, topics and their split, network, wall time. */
export function runHeader(res: LabResults): string {
  const m = res.meta;
  const split = m.split
    ? m.split.name === 'none'
      ? 'hand-made list, no split'
      : `split: ${m.split.name}${m.split.name === 'mixed' ? ` (${m.split.tune} tuning, ${m.split.test} test)` : ''}`
    : 'split not recorded';
  const network = m.network
    ? `simulated network ${m.network.model} (seed ${m.network.seed}, politeness ${m.network.politenessMs} ms, ${m.network.maxInFlight} in flight)`
    : 'HTTP over loopback, no added latency';
  const cpu = m.cpuSeconds !== undefined ? `, CPU ${m.cpuSeconds.toFixed(0)} s` : '';
  const merged = m.mergedFrom ? `; merged from ${m.mergedFrom.length} runs` : '';
  return (
    `corpus ${m.corpus.name ?? m.corpus.description.split(' ')[0]} (${m.corpus.pages} pages); topics ${m.topicsFile} ` +
    `(${m.topics.length}; ${split}); ${network}; ${m.crawls} crawls, ${m.pagesFetched} pages in ${m.wallSeconds.toFixed(0)} s wall${cpu}${merged}`
  );
}

/** "3 RNG seeds each"; merged results may have crawled strategies with different numbers of seeds. */
function seedsText(res: LabResults, task: TaskId): string {
  if (!res.meta.mergedFrom) return `${res.meta.seeds.length} RNG seeds each`;
  const seeds = new Map<string, Set<number>>();
  for (const c of res.crawls.filter((c) => c.task === task)) {
    if (!seeds.has(c.strategy)) seeds.set(c.strategy, new Set());
    seeds.get(c.strategy)!.add(c.seed);
  }
  const counts = [...new Set([...seeds.values()].map((s) => s.size))].sort((a, b) => a - b);
  return counts.length > 1
    ? `${counts[0]} to ${counts[counts.length - 1]} RNG seeds per strategy`
    : `${counts[0] ?? res.meta.seeds.length} RNG seeds each`;
}

/** "; all of them within 21 pages (median over topics; 90% of topics within 42; 2 of 106 topics not within 2000)". */
function pagesText(pages: (number | undefined)[], budget: number): string {
  const sorted = pages.filter((p): p is number => p !== undefined).sort((a, b) => a - b);
  if (!sorted.length) return `; all of them on no topic within ${budget} pages`;
  // Topics whose targets were not all found sort last, as if they needed more than the budget.
  const at = (q: number) => {
    const k = Math.ceil(q * pages.length) - 1;
    return k < sorted.length ? String(sorted[k]) : `more than ${budget}`;
  };
  const short = pages.length - sorted.length;
  return (
    `; all of them within ${at(0.5)} pages (median over topics; 90% of topics within ${at(0.9)}` +
    `${short ? `; ${short} of ${pages.length} topics not within ${budget}` : ''})`
  );
}

function cellText(mean: number, se: number): string {
  return Number.isFinite(se) ? `${fmt(mean)}±${fmt(se)}` : fmt(mean);
}

/** The terminal table: per task and metric, strategies by budgets, mean ± standard error over topics. */
export function textTable(res: LabResults, metrics?: string[]): string {
  const lines: string[] = [];
  const labels = res.meta.strategies.map((s) => s.label);
  const width = Math.max(10, ...labels.map((l) => l.length)) + 2;
  const metricList = metrics ?? [...new Set(res.results.map((r) => r.metric))];
  lines.push(runHeader(res));
  for (const task of res.meta.tasks) {
    lines.push('', `${TASK_NAMES[task]} — mean ± standard error over ${res.meta.topics.length} topics (${seedsText(res, task)})`);
    const shares = res.statics.filter((s) => s.task === task && Number.isFinite(s.reachableShare));
    if (shares.length) {
      const share = meanSe(shares.map((s) => s.reachableShare));
      const whole = shares.filter((s) => s.reachableShare === 1).length;
      lines.push(
        `  targets reachable by links from the seeds: ${cellText(share.mean, share.se)} (every target on ${whole} of ${shares.length} topics)`,
      );
      const known = shares.filter((s) => s.knownTargetsRecall?.length === res.meta.budgets.length);
      if (known.length === shares.length)
        lines.push(
          `  recall-reachable of a crawl that knows the targets (nearest first): ` +
            res.meta.budgets
              .map((budget, j) => {
                const { mean, se } = meanSe(known.map((s) => s.knownTargetsRecall![j]).filter(Number.isFinite));
                return `${cellText(mean, se)} @${budget}`;
              })
              .join(', ') +
            pagesText(
              known.filter((s) => s.reachable.length > 0).map((s) => s.knownTargetsPages),
              Math.max(...res.meta.budgets),
            ),
        );
      const similar = shares.filter((s) => s.knownSimilarityRecall?.length === res.meta.budgets.length);
      if (similar.length === shares.length)
        lines.push(
          `  recall-reachable of a crawl that knows each page's similarity to the topic (most similar first): ` +
            res.meta.budgets
              .map((budget, j) => {
                const { mean, se } = meanSe(similar.map((s) => s.knownSimilarityRecall![j]).filter(Number.isFinite));
                return `${cellText(mean, se)} @${budget}`;
              })
              .join(', '),
        );
      if (shares.every((s) => s.wordlessShare !== undefined)) {
        const values = shares.map((s) => s.wordlessShare!).filter(Number.isFinite);
        const { mean, se } = meanSe(values);
        lines.push(
          `  reachable targets behind a page with none of the topic's words on every path from the seeds: ${cellText(mean, se)}` +
            ` (mean over topics; some on ${values.filter((v) => v > 0).length} of ${values.length})`,
        );
      }
    }
    for (const metric of metricList) {
      lines.push(`  ${metric}`.padEnd(width + 2) + res.meta.budgets.map((b) => String(b).padStart(15)).join(''));
      for (const label of labels) {
        const r = res.results.find((x) => x.task === task && x.strategy === label && x.metric === metric);
        if (!r) continue;
        lines.push(
          `    ${label}`.padEnd(width + 2) +
            res.meta.budgets.map((b) => cellText(r.budgets[b].mean, r.budgets[b].se).padStart(15)).join(''),
        );
      }
    }
    const net = res.meta.network;
    if (net) {
      for (const metric of [...new Set(res.results.filter((r) => r.times).map((r) => r.metric))]) {
        lines.push(`  ${metric} at simulated time`.padEnd(width + 2) + net.seconds.map((t) => `${t} s`.padStart(15)).join(''));
        for (const label of labels) {
          const r = res.results.find((x) => x.task === task && x.strategy === label && x.metric === metric);
          if (!r?.times) continue;
          lines.push(
            `    ${label}`.padEnd(width + 2) +
              net.seconds.map((t) => cellText(r.times![t].mean, r.times![t].se).padStart(15)).join(''),
          );
        }
      }
      lines.push(
        '  time to the first k targets'.padEnd(width + 2) +
          net.firstTargets.map((k) => `k=${k}`.padStart(18)).join('') +
          '   (median seconds over topics; topics that got there)',
      );
      for (const label of labels) {
        const row = net.firstTargets.map((k) =>
          res.timeToTargets?.find((x) => x.task === task && x.strategy === label && x.k === k),
        );
        if (row.some((x) => !x)) continue;
        lines.push(
          `    ${label}`.padEnd(width + 2) +
            row.map((x) => `${fmtSeconds(x!.median)} (${x!.reached}/${x!.n})`.padStart(18)).join(''),
        );
      }
    }
  }
  if (res.comparisons.length) {
    lines.push(
      '',
      'Paired comparisons over topics (A - B: mean ± se, t, wins/ties/losses of A; "t at most": the best any A could',
      "reach against B's scores, B being at the maximum on some topics)",
    );
    for (const c of res.comparisons) {
      const t = Number.isFinite(c.t) ? ` t ${c.t >= 0 ? '+' : ''}${fmt(c.t, 1)}` : '';
      const maxT = c.maxT !== undefined && Number.isFinite(c.maxT) ? ` (t at most ${fmt(c.maxT, 2)})` : '';
      lines.push(
        `  task${c.task} ${c.metric.padEnd(12)} @${String(c.budget).padEnd(5)} ${c.a} vs ${c.b}: ${fmt(c.meanDiff)} ± ${fmt(c.se)}${t}${maxT}  ${c.wins}/${c.ties}/${c.losses}`,
      );
    }
  }
  return lines.join('\n');
}

// -------------------------------------------------------------------------------------------------- SVG plots

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '4 4'];

export interface PlotSeries {
  label: string;
  x: number[];
  y: number[];
  /** Standard errors; drawn as error bars at the x values in `errAt` (all if undefined). */
  err?: number[];
}

export interface PlotOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  series: PlotSeries[];
  errAt?: number[];
  width?: number;
  height?: number;
  /** Y axis from 0 (default true). */
  zeroBased?: boolean;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Rounded tick values covering [lo, hi]. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) hi = lo + 1;
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const stepv = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / stepv) * stepv; v <= hi + stepv * 1e-9; v += stepv) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** A line chart as an SVG string: one line per series, markers, optional error bars, legend at the right. */
export function lineChart(o: PlotOptions): string {
  const W = o.width ?? 560;
  const H = o.height ?? 320;
  const legendW = 150;
  const m = { l: 56, r: legendW + 10, t: 30, b: 44 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const xs = o.series.flatMap((s) => s.x);
  const ys = o.series
    .flatMap((s) => s.y.map((y, i) => y + (s.err && Number.isFinite(s.err[i]) ? s.err[i] : 0)))
    .filter(Number.isFinite);
  const ysLo = o.series
    .flatMap((s) => s.y.map((y, i) => y - (s.err && Number.isFinite(s.err[i]) ? s.err[i] : 0)))
    .filter(Number.isFinite);
  const x0 = Math.min(...xs, o.zeroBased === false ? Infinity : 0);
  const x1 = Math.max(...xs);
  let y0 = o.zeroBased === false ? Math.min(...ysLo) : 0;
  let y1 = ys.length ? Math.max(...ys) : 1;
  if (!Number.isFinite(y0)) y0 = 0;
  if (!(y1 > y0)) y1 = y0 + 1;
  const yTicks = niceTicks(y0, y1);
  y0 = Math.min(y0, yTicks[0]);
  y1 = Math.max(y1, yTicks[yTicks.length - 1]);
  const xTicks = niceTicks(x0, x1, 6);
  const sx = (x: number) => m.l + ((x - x0) / (x1 - x0 || 1)) * pw;
  const sy = (y: number) => m.t + ph - ((y - y0) / (y1 - y0 || 1)) * ph;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
  );
  parts.push(`<text x="${m.l + pw / 2}" y="16" text-anchor="middle" font-size="13" font-weight="bold">${esc(o.title)}</text>`);
  parts.push(`<rect x="${m.l}" y="${m.t}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`);
  for (const t of yTicks) {
    if (t < y0 - 1e-12 || t > y1 + 1e-12) continue;
    const y = sy(t);
    parts.push(`<line x1="${m.l}" x2="${m.l + pw}" y1="${y}" y2="${y}" stroke="#eee"/>`);
    parts.push(`<text x="${m.l - 5}" y="${y + 4}" text-anchor="end">${t}</text>`);
  }
  for (const t of xTicks) {
    if (t < x0 || t > x1) continue;
    const x = sx(t);
    parts.push(`<line x1="${x}" x2="${x}" y1="${m.t + ph}" y2="${m.t + ph + 4}" stroke="#666"/>`);
    parts.push(`<text x="${x}" y="${m.t + ph + 16}" text-anchor="middle">${t}</text>`);
  }
  parts.push(`<text x="${m.l + pw / 2}" y="${H - 8}" text-anchor="middle">${esc(o.xLabel)}</text>`);
  parts.push(`<text transform="translate(14 ${m.t + ph / 2}) rotate(-90)" text-anchor="middle">${esc(o.yLabel)}</text>`);
  o.series.forEach((s, si) => {
    const color = PALETTE[si % PALETTE.length];
    const dash = DASHES[Math.floor(si / PALETTE.length) % DASHES.length] || DASHES[si % DASHES.length];
    const pts = s.x.map((x, i) => [x, s.y[i]] as const).filter(([, y]) => Number.isFinite(y));
    if (pts.length) {
      parts.push(
        `<polyline fill="none" stroke="${color}" stroke-width="1.8"${dash ? ` stroke-dasharray="${dash}"` : ''} points="${pts.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ')}"/>`,
      );
    }
    s.x.forEach((x, i) => {
      const y = s.y[i];
      if (!Number.isFinite(y)) return;
      const showErr = !o.errAt || o.errAt.includes(x);
      const e = s.err?.[i];
      if (showErr && e !== undefined && Number.isFinite(e) && e > 0) {
        const cx = sx(x) + (si - (o.series.length - 1) / 2) * 2; // nudge so bars of different lines do not overlap
        parts.push(`<line x1="${cx}" x2="${cx}" y1="${sy(y - e)}" y2="${sy(y + e)}" stroke="${color}" stroke-width="1.2"/>`);
        parts.push(`<line x1="${cx - 3}" x2="${cx + 3}" y1="${sy(y - e)}" y2="${sy(y - e)}" stroke="${color}"/>`);
        parts.push(`<line x1="${cx - 3}" x2="${cx + 3}" y1="${sy(y + e)}" y2="${sy(y + e)}" stroke="${color}"/>`);
      }
      if (showErr || s.x.length <= 12) parts.push(`<circle cx="${sx(x)}" cy="${sy(y)}" r="2.5" fill="${color}"/>`);
    });
    const ly = m.t + 8 + si * 16;
    const lx = m.l + pw + 12;
    parts.push(
      `<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`,
    );
    parts.push(`<text x="${lx + 27}" y="${ly + 4}">${esc(s.label)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

// -------------------------------------------------------------------------------------------------- HTML

/** The self-contained HTML report. */
export function htmlReport(res: LabResults): string {
  const labels = res.meta.strategies.map((s) => s.label);
  const get = (task: TaskId, label: string, metric: string) =>
    res.results.find((r) => r.task === task && r.strategy === label && r.metric === metric);
  const maxBudget = Math.max(...res.meta.budgets);
  const midK = res.meta.ks[Math.floor((res.meta.ks.length - 1) / 2)];
  const out: string[] = [];
  out.push(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Forager crawl lab</title><style>
body{font-family:sans-serif;margin:20px;max-width:1300px;color:#222}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}h3{font-size:15px}
.plots{display:flex;flex-wrap:wrap;gap:8px}
table{border-collapse:collapse;font-size:12px;margin:6px 0 14px}td,th{border:1px solid #ddd;padding:3px 7px;text-align:right}
td.l,th.l{text-align:left}th{background:#f4f4f4}.best{font-weight:bold;background:#eef6ee}
.meta{font-size:13px;color:#444}code{background:#f4f4f4;padding:0 3px}
</style></head><body>`);
  out.push(`<h1>Forager crawl lab</h1>`);
  out.push(`<p class="meta">${esc(runHeader(res))}</p>`);
  const m = res.meta;
  out.push(
    `<p class="meta">${esc(m.createdAt)} · topics: ${esc(m.topics.join(', '))} (${esc(m.topicsFile)}) · strategies: ${esc(labels.join(', '))} · budgets ${m.budgets.join(', ')} · ` +
      `MAX_BUFFER ${m.maxBuffer} · RNG seeds ${m.seeds.join(', ')}${m.mergedFrom ? ` · merged from ${esc(m.mergedFrom.join(', '))}` : ''} · ${m.crawls} crawls, ${m.pagesFetched} pages, ${m.evaluations} evaluations ` +
      `(${m.evaluationCacheHits} cache hits) in ${m.wallSeconds.toFixed(0)} s<br>corpus: ${esc(m.corpus.description)}, ${m.corpus.pages} pages ` +
      `(${Object.entries(m.corpus.sites)
        .map(([s, n]) => `${esc(s)} ${n}`)
        .join(', ')}), ${m.corpus.hubs} hubs left out of static rankings</p>`,
  );
  out.push(`<p class="meta">Values are means over topics of each topic's mean over RNG seeds; error bars and ± are standard errors over topics.
recall = share of the targets (seeds excluded) crawled; harvest = mean TF-IDF cosine of the crawled non-seed pages to the topic description;
lexical@k / linkage@k = share of the top k pages (seeds and hubs excluded) of a BM25 ranking against the description / of a ranking by topic keywords contained (PageRank breaks ties) that were crawled.</p>`);
  for (const task of m.tasks) {
    out.push(`<h2>${TASK_NAMES[task]}</h2><div class="plots">`);
    const dyn = (metric: string, title: string, yLabel: string) => {
      const series = labels
        .map((label) => get(task, label, metric))
        .filter((r): r is MetricResult => !!r)
        .map((r) => ({ label: r.strategy, x: r.dynamic.pages, y: r.dynamic.mean, err: r.dynamic.se }));
      return lineChart({ title, xLabel: 'pages crawled', yLabel, series, errAt: m.budgets });
    };
    out.push(dyn('recall', 'Target recall', 'recall'));
    out.push(dyn('harvest', 'Harvest rate (similarity to description)', 'mean cosine'));
    out.push(dyn(`lexical@${midK}`, `Static lexical coverage, top ${midK}`, 'coverage'));
    out.push(dyn(`linkage@${midK}`, `Static linkage coverage, top ${midK}`, 'coverage'));
    for (const kind of ['lexical', 'linkage']) {
      const series = labels.map((label) => {
        const cells = m.ks.map((k) => get(task, label, `${kind}@${k}`)?.budgets[maxBudget]);
        return { label, x: m.ks, y: cells.map((c) => c?.mean ?? NaN), err: cells.map((c) => c?.se ?? NaN) };
      });
      out.push(
        lineChart({
          title: `${kind === 'lexical' ? 'Lexical' : 'Linkage'} coverage vs top-k at ${maxBudget} pages`,
          xLabel: 'k (top-k pages)',
          yLabel: 'coverage',
          series,
        }),
      );
    }
    const net = m.network;
    if (net) {
      for (const [metric, title, yLabel] of [
        ['recall', 'Target recall over simulated time', 'recall'],
        ['harvest', 'Harvest rate over simulated time', 'mean cosine'],
      ] as const) {
        const series = labels
          .map((label) => get(task, label, metric))
          .filter((r): r is MetricResult => !!r?.timeDynamic)
          .map((r) => ({ label: r.strategy, x: r.timeDynamic!.seconds, y: r.timeDynamic!.mean, err: r.timeDynamic!.se }));
        if (series.length)
          out.push(lineChart({ title, xLabel: 'simulated seconds since the crawl started', yLabel, series, errAt: net.seconds }));
      }
    }
    out.push('</div>');
    if (net) {
      out.push(
        `<table><tr><th class="l">metric</th><th class="l">strategy</th>${net.seconds.map((t) => `<th>${t} s</th>`).join('')}</tr>`,
      );
      for (const metric of ['recall', 'harvest']) {
        const rows = labels.map((l) => get(task, l, metric)).filter((r): r is MetricResult => !!r?.times);
        const best = net.seconds.map((t) =>
          Math.max(...rows.map((r) => (Number.isFinite(r.times![t].mean) ? r.times![t].mean : -Infinity))),
        );
        rows.forEach((r, i) => {
          out.push(
            `<tr>${i === 0 ? `<td class="l" rowspan="${rows.length}">${esc(metric)} at simulated time</td>` : ''}<td class="l">${esc(r.strategy)}</td>` +
              net.seconds
                .map(
                  (t, j) =>
                    `<td${r.times![t].mean === best[j] ? ' class="best"' : ''}>${cellText(r.times![t].mean, r.times![t].se)}</td>`,
                )
                .join('') +
              '</tr>',
          );
        });
      }
      out.push('</table>');
      out.push(
        `<table><tr><th class="l">time to the first k targets (median over topics; topics that got there)</th>${net.firstTargets.map((k) => `<th>k = ${k}</th>`).join('')}</tr>`,
      );
      for (const label of labels) {
        const row = net.firstTargets.map((k) =>
          res.timeToTargets?.find((x) => x.task === task && x.strategy === label && x.k === k),
        );
        if (row.some((x) => !x)) continue;
        out.push(
          `<tr><td class="l">${esc(label)}</td>${row.map((x) => `<td>${fmtSeconds(x!.median)} (${x!.reached}/${x!.n})</td>`).join('')}</tr>`,
        );
      }
      out.push('</table>');
    }
    // Summary table: metric x budget, best strategy per column in bold.
    const metrics = [...new Set(res.results.filter((r) => r.task === task).map((r) => r.metric))];
    out.push(
      '<table><tr><th class="l">metric</th><th class="l">strategy</th>' +
        m.budgets.map((b) => `<th>${b} pages</th>`).join('') +
        '</tr>',
    );
    for (const metric of metrics) {
      const rows = labels.map((l) => get(task, l, metric)).filter((r): r is MetricResult => !!r);
      const best = m.budgets.map((b) =>
        Math.max(...rows.map((r) => (Number.isFinite(r.budgets[b].mean) ? r.budgets[b].mean : -Infinity))),
      );
      rows.forEach((r, i) => {
        out.push(
          `<tr>${i === 0 ? `<td class="l" rowspan="${rows.length}">${esc(metric)}</td>` : ''}<td class="l">${esc(r.strategy)}</td>` +
            m.budgets
              .map(
                (b, j) =>
                  `<td${r.budgets[b].mean === best[j] ? ' class="best"' : ''}>${cellText(r.budgets[b].mean, r.budgets[b].se)}</td>`,
              )
              .join('') +
            '</tr>',
        );
      });
    }
    out.push('</table>');
    const comps = res.comparisons.filter((c) => c.task === task);
    if (comps.length) {
      out.push(
        '<h3>Paired comparisons over topics</h3><table><tr><th class="l">A vs B</th><th class="l">metric</th><th>budget</th><th>mean A−B</th><th>se</th><th>t</th><th title="the largest t any strategy could reach against B here, B being at the maximum on some topics">t at most</th><th>wins/ties/losses of A</th></tr>',
      );
      for (const c of comps) {
        out.push(
          `<tr><td class="l">${esc(c.a)} vs ${esc(c.b)}</td><td class="l">${esc(c.metric)}</td><td>${c.budget}</td><td>${fmt(c.meanDiff)}</td><td>${fmt(c.se)}</td><td>${fmt(c.t, 2)}</td><td>${c.maxT === undefined ? '' : c.maxT === Infinity ? '∞' : fmt(c.maxT, 2)}</td><td>${c.wins}/${c.ties}/${c.losses}</td></tr>`,
        );
      }
      out.push('</table>');
    }
    out.push(
      `<details><summary>Per topic at ${maxBudget} pages</summary><table><tr><th class="l">metric</th><th class="l">strategy</th>${m.topics.map((t) => `<th>${esc(t)}</th>`).join('')}</tr>`,
    );
    for (const metric of metrics) {
      for (const label of labels) {
        const r = get(task, label, metric);
        if (!r) continue;
        out.push(
          `<tr><td class="l">${esc(metric)}</td><td class="l">${esc(label)}</td>${m.topics.map((t) => `<td>${fmt(r.budgets[maxBudget].perTopic[t] ?? NaN)}</td>`).join('')}</tr>`,
        );
      }
    }
    out.push('</table></details>');
  }
  out.push('</body></html>\n');
  return out.join('\n');
}
