/**
 * UI models: how a page, a date, a highlight, a preset or a start draft is shown. Browser-free and tested under Node;
 * the Preact components in entrypoints/ui render what these compute.
 */
export * from './highlight';
export * from './page-view';
export * from './presets';
export * from './results';
export * from './start-draft';
