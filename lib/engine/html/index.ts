export { decodeHtml, charsetFromContentType, prescanMetaCharset } from './charset';
export { evaluatePage, localEvaluator, DEFAULT_MAX_LINKS, DEFAULT_CONTEXT_WINDOW } from './evaluate';
export type { EvaluateOptions } from './evaluate';
