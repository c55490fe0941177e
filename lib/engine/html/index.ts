export { decodeHtml, charsetFromContentType, prescanMetaCharset } from './charset';
export {
  evaluatePage,
  evaluateReading,
  prepareTopic,
  readPage,
  pageTexts,
  PageReading,
  TopicScoring,
  localEvaluator,
  DEFAULT_MAX_LINKS,
  DEFAULT_CONTEXT_WINDOW,
} from './evaluate';
export type { EvaluateOptions, PageInput } from './evaluate';
