/**
 * The product's domain rules: what counts as relevant, how feedback changes a list, what a valid start is, how text
 * from pages is made safe to show. Pure functions over the model; used by every service, the UIs, the CLI and the lab.
 */
export * from './feedback';
export * from './relevance';
export * from './settings';
export * from './text-safety';
export * from './settings-bounds';
