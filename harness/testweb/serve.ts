/**
 * Serves the test web until Ctrl-C (or stdin closes, with --control):
 *   npx tsx harness/testweb/serve.ts [--seed N] [--pages-per-topic N] [--port P] [--latency fixed:MS|heavy-tail] [--hostile] [--control]
 * Prints the portal URL and every site's origin. With --control (for a benchmark that runs the web in its own
 * process, so that the web's CPU is not the crawler's) it prints one JSON line instead: origins, portal, and per
 * topic the keywords and three seeds, plus a control URL whose GET /requests returns (and forgets) the requests
 * served since the last call, each with the latency it was given.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { seedsFor, topicQuery } from './generate';
import { latencyModel } from './latency';
import { startTestWeb } from './server';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    'pages-per-topic': { type: 'string' },
    port: { type: 'string', default: '0' },
    delay: { type: 'string' },
    latency: { type: 'string', default: '0' },
    hostile: { type: 'boolean', default: false },
    control: { type: 'boolean', default: false },
  },
});
const num = (name: string, v: string | undefined) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got ${v}`);
  return n;
};

const seed = num('seed', values.seed);
const tw = await startTestWeb({
  seed,
  ...(values['pages-per-topic'] ? { pagesPerTopic: num('pages-per-topic', values['pages-per-topic']) } : {}),
  port: num('port', values.port),
  delayMs: latencyModel(values.delay ?? values.latency ?? '0', seed),
  hostile: values.hostile,
});

if (values.control) {
  let served = 0;
  const control = http.createServer((req, res) => {
    if (req.url !== '/requests') {
      res.writeHead(404);
      res.end();
      return;
    }
    const fresh = tw.requests.slice(served).map((r) => ({ url: r.url, site: r.site, time: r.time, delayMs: r.delayMs }));
    served = tw.requests.length;
    res.writeHead(200, { 'content-type': 'application/json' });
    // Infinity is not JSON: a request never answered is sent as null.
    res.end(JSON.stringify(fresh));
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const topics = Object.fromEntries(
    tw.web.topics.map((t) => [t.id, { ...topicQuery(tw.web, t.id), seeds: seedsFor(tw.web, t.id, 3).map((p) => tw.urlOf(p)) }]),
  );
  process.stdout.write(
    `${JSON.stringify({
      origins: tw.origins,
      portal: tw.portalUrl,
      topics,
      control: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    })}\n`,
  );
  // The parent ends us by closing our stdin (or killing us).
  process.stdin.resume();
  process.stdin.on('end', () => {
    control.close();
    void tw.close().then(() => process.exit(0));
  });
} else {
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
  console.log('Ctrl-C to stop.');
}
const stop = () => {
  void tw.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
