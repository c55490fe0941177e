/**
 * A topic analysed once, where the language data is: its language (when the topic does not say one, detected as
 * text/language.ts topicLanguage reads it) and its words as text analysis makes them (Topic.analysis). The
 * extension's service worker asks the evaluator Worker for this when a run starts, and then scores links and pages
 * with no stop list, stemmer or detector of its own: those 1.5 MB stay out of the script it parses at every start.
 */
import type { Topic, TopicHints } from '../types';
import { topicLanguage } from './language';
import { analysisKey, expandedVector, keywordVector } from './vector';

/**
 * The topic with its language set (unless it has one or nothing says) and its analysis attached; the topic itself
 * is not changed. Throws MissingLanguageData where the data is loaded on demand (run it in withLanguageData).
 */
export function analyseTopic(topic: Topic, hints: TopicHints = {}): Topic {
  const { analysis: _stale, ...rest } = topic;
  const out: Topic = { ...rest };
  if (!out.language) {
    const detected = topicLanguage({ keywords: out.keywords, context: out.context, pageLang: hints.pageLang });
    if (detected) out.language = detected;
  }
  out.analysis = { of: analysisKey(out), query: keywordVector(out), expanded: expandedVector(out) };
  return out;
}

/** Whether the topic carries an analysis of what it says now (its keywords, language, context, expansion weight). */
export function isAnalysed(topic: Topic): boolean {
  return topic.analysis !== undefined && topic.analysis.of === analysisKey(topic);
}

/** The topic without its analysis: what a crawl record or an export keeps (the analysis is derived, and large). */
export function withoutAnalysis(topic: Topic): Topic {
  if (topic.analysis === undefined) return topic;
  const { analysis: _derived, ...rest } = topic;
  return rest;
}
