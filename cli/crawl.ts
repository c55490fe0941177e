/**
 * Forager on the command line (see cli/crawl-command.ts):
 *
 *   npm run crawl -- "<topic keywords>" <seed URL>... [options]
 *
 * Progress goes to stderr; the ranked pages (or JSON with --json) to stdout.
 */
import { errorMessage } from '../lib/engine';
import { runCrawlCommand } from './crawl-command';

// `npm run crawl | head` closes stdout early: not an error worth a stack trace.
process.stdout.on('error', () => process.exit(0));

let interrupts = 0;
runCrawlCommand(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  onInterrupt: (stop) =>
    process.on('SIGINT', () => {
      if (++interrupts > 1) process.exit(130);
      stop();
    }),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // A bug, not a usage error: say what it was, briefly.
    process.stderr.write(`forager: ${errorMessage(error)}\n`);
    process.exit(1);
  },
);
