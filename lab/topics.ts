/**
 * Topic files in the lab's format `docweb-topics/1`: each topic has an id, keywords (the crawler's query), a
 * description (judges lexical relevance), targets (the relevant set), examples (Task 1 seeds) and neighbors
 * (Task 2 seeds). Pages are named `SITE/PATH`.
 */
import { readFileSync } from 'node:fs';

/** How a generated topic was made (see lab/topic-generator.ts). */
export type TopicKind = 'chapter' | 'cross-site' | 'query';
export const TOPIC_KINDS: TopicKind[] = ['chapter', 'cross-site', 'query'];

export interface LabTopic {
  id: string;
  keywords: string;
  description: string;
  targets: string[];
  examples: string[];
  neighbors: string[];
  /** Stop-word language; default 'en'. */
  language?: string;
  /** How the topic was made (generated topics). */
  kind?: TopicKind;
  /** Key of the tuning/test split when it is not the id (translations of one chapter share one). */
  splitKey?: string;
}

export interface TopicsFile {
  format: 'docweb-topics/1';
  corpus?: string;
  topics: LabTopic[];
}

/** Task 1 starts from examples (half the targets), Task 2 from neighbors (pages a few links away from any target). */
export type TaskId = 1 | 2;

export function seedsOf(topic: LabTopic, task: TaskId): string[] {
  return task === 1 ? topic.examples : topic.neighbors;
}

const PAGE_ID = /^[A-Za-z0-9._-]+\/[^\s]+$/;

/**
 * Checks a parsed topics file and returns it typed. Every problem is collected and reported at once, each with the
 * topic and field it concerns.
 * @param knownPage when given, page ids it rejects are reported as missing from the corpus.
 * @throws Error listing every problem.
 */
export function validateTopics(data: unknown, source = 'topics', knownPage?: (id: string) => boolean): TopicsFile {
  const errors: string[] = [];
  const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (!isObj(data)) throw new Error(`${source}: not a JSON object`);
  if (data.format !== 'docweb-topics/1') errors.push(`format must be "docweb-topics/1", got ${JSON.stringify(data.format)}`);
  if (!Array.isArray(data.topics) || data.topics.length === 0) errors.push('"topics" must be a non-empty array');
  const topics: LabTopic[] = [];
  const seen = new Set<string>();
  for (const [i, t] of (Array.isArray(data.topics) ? data.topics : []).entries()) {
    const where = `topic #${i + 1}${isObj(t) && typeof t.id === 'string' ? ` (${t.id})` : ''}`;
    if (!isObj(t)) {
      errors.push(`${where}: not an object`);
      continue;
    }
    const str = (k: string): string => {
      const v = t[k];
      if (typeof v !== 'string' || v.trim() === '') {
        errors.push(`${where}: "${k}" must be a non-empty string`);
        return '';
      }
      return v;
    };
    const list = (k: string): string[] => {
      const v = t[k];
      if (!Array.isArray(v) || v.length === 0) {
        errors.push(`${where}: "${k}" must be a non-empty array of SITE/PATH strings`);
        return [];
      }
      const out: string[] = [];
      for (const x of v) {
        if (typeof x !== 'string' || !PAGE_ID.test(x))
          errors.push(`${where}: "${k}" has ${JSON.stringify(x)}, not a SITE/PATH page id`);
        else if (knownPage && !knownPage(x)) errors.push(`${where}: "${k}" names ${x}, which is not a page of the corpus`);
        else out.push(x);
      }
      if (new Set(out).size !== out.length) errors.push(`${where}: "${k}" lists a page twice`);
      return out;
    };
    const id = str('id');
    if (id && seen.has(id)) errors.push(`${where}: duplicate id`);
    seen.add(id);
    const topic: LabTopic = {
      id,
      keywords: str('keywords'),
      description: str('description'),
      targets: list('targets'),
      examples: list('examples'),
      neighbors: list('neighbors'),
    };
    if (t.kind !== undefined) {
      if (!TOPIC_KINDS.includes(t.kind as TopicKind)) errors.push(`${where}: "kind" must be one of ${TOPIC_KINDS.join(', ')}`);
      else topic.kind = t.kind as TopicKind;
    }
    if (t.splitKey !== undefined) {
      if (typeof t.splitKey !== 'string' || t.splitKey === '') errors.push(`${where}: "splitKey" must be a non-empty string`);
      else topic.splitKey = t.splitKey;
    }
    if (t.language !== undefined) {
      if (typeof t.language !== 'string' || !/^[a-z]{2}$/.test(t.language))
        errors.push(`${where}: "language" must be a two-letter code`);
      else topic.language = t.language;
    }
    const targets = new Set(topic.targets);
    const strayExamples = topic.examples.filter((x) => !targets.has(x));
    if (strayExamples.length) errors.push(`${where}: examples must be targets; not targets: ${strayExamples.join(', ')}`);
    if (topic.targets.length && topic.examples.length >= topic.targets.length) {
      errors.push(`${where}: examples cover every target, so Task 1 recall is undefined`);
    }
    const targetNeighbors = topic.neighbors.filter((x) => targets.has(x));
    if (targetNeighbors.length) errors.push(`${where}: neighbors must not be targets: ${targetNeighbors.join(', ')}`);
    topics.push(topic);
  }
  if (errors.length)
    throw new Error(`${source}: ${errors.length} problem${errors.length > 1 ? 's' : ''}:\n  ${errors.join('\n  ')}`);
  return { format: 'docweb-topics/1', corpus: typeof data.corpus === 'string' ? data.corpus : undefined, topics };
}

/** Reads and validates a topics file (see {@link validateTopics}). */
export function loadTopics(file: string, knownPage?: (id: string) => boolean): TopicsFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read topics file ${file}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: invalid JSON: ${(err as Error).message}`);
  }
  return validateTopics(data, file, knownPage);
}
