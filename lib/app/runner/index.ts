/**
 * Crawls run by the application: the runner (its commands and the run driver), one run's life and its write-behind
 * of progress. Browser-free: storage, evaluation, fetch and clock are injected.
 */
export * from './crawl-runner';
export * from './progress-writer';
export * from './run-lifecycle';
