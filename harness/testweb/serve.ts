/**
 * Serves the test web until Ctrl-C, for a manual look: `npx tsx harness/testweb/serve.ts [--seed N] [--port P] [--delay MS] [--hostile]`.
 * Prints the portal URL and every site's origin.
 */
import { parseArgs } from 'node:util';
import { seedsFor } from './generate';
import { startTestWeb } from './server';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    port: { type: 'string', default: '0' },
    delay: { type: 'string', default: '0' },
    hostile: { type: 'boolean', default: false },
  },
});
const num = (name: string, v: string | undefined) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${v}`);
  return n;
};

const tw = await startTestWeb({
  seed: num('seed', values.seed),
  port: num('port', values.port),
  delayMs: num('delay', values.delay),
  hostile: values.hostile,
});
console.log(
  `Test web (seed ${tw.web.seed}): ${tw.web.pages.size} pages on ${tw.web.sites.length} sites${values.hostile ? ', hostile links on' : ''}`,
);
console.log(`Portal: ${tw.portalUrl}`);
for (const site of tw.web.sites) console.log(`  ${site}: ${tw.origins[site]}/`);
for (const topic of tw.web.topics) {
  const seeds = seedsFor(tw.web, topic.id, 3)
    .map((p) => tw.urlOf(p))
    .join(' ');
  console.log(`Topic "${topic.keywords}" seeds: ${seeds}`);
}
const [first] = tw.web.topics;
const firstSeeds = seedsFor(tw.web, first.id, 3).map((p) => tw.urlOf(p));
console.log(`Crawl it (its sites are on 127.0.0.1, hence --allow-private):`);
console.log(`  npm run crawl -- "${first.keywords}" ${firstSeeds.join(' ')} --allow-private --delay 0`);
