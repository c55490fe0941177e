/**
 * Crawls run by the application: the runner's commands (crawl-runner.ts), the run driver (run-driver.ts), one run's
 * life and its write-behind of progress. Browser-free: storage, evaluation, fetch and clock are injected
 * (runner-deps.ts).
 */
export * from './crawl-records';
export * from './crawl-runner';
export * from './failure-notes';
export * from './progress-writer';
export * from './run-driver';
export * from './run-lifecycle';
export * from './runner-deps';
