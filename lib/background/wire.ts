/**
 * Evaluation inputs on the wire. Chrome's runtime messaging serializes to JSON, where a Uint8Array would become an
 * object with one key per byte (~10x the size); base64 costs 4/3. Between the offscreen document and its Worker,
 * structured clone works, so the decoded buffer is transferred there instead of copied.
 */
import type { WireEvaluationInput } from '../protocol';
import type { EvaluationInput } from '../types';

const CHUNK = 0x8000; // String.fromCharCode.apply argument limit stays far below engine caps

/** Bytes -> base64 (btoa exists in service workers, pages, workers and Node). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return btoa(binary);
}

/** base64 -> bytes in a fresh ArrayBuffer of exactly their length (so it can be transferred whole). */
export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** An evaluation input ready for JSON messaging. */
export function toWire(input: EvaluationInput): WireEvaluationInput {
  const wire: WireEvaluationInput = { url: input.url, bodyBase64: bytesToBase64(input.body), topic: { ...input.topic } };
  if (input.contentType !== undefined) wire.contentType = input.contentType;
  if (input.contextWindow !== undefined) wire.contextWindow = input.contextWindow;
  return wire;
}

/**
 * Back from the wire; throws a TypeError on malformed input (the message came over a channel, so it is checked).
 */
export function fromWire(wire: unknown): EvaluationInput {
  const w = wire as Partial<WireEvaluationInput> | null;
  if (!w || typeof w !== 'object' || typeof w.url !== 'string' || typeof w.bodyBase64 !== 'string') {
    throw new TypeError('malformed evaluation input');
  }
  if (!w.topic || typeof w.topic.keywords !== 'string') throw new TypeError('evaluation input without a topic');
  const input: EvaluationInput = {
    url: w.url,
    body: base64ToBytes(w.bodyBase64),
    topic: w.topic.language ? { keywords: w.topic.keywords, language: String(w.topic.language) } : { keywords: w.topic.keywords },
  };
  if (typeof w.contentType === 'string') input.contentType = w.contentType;
  if (typeof w.contextWindow === 'number') input.contextWindow = w.contextWindow;
  return input;
}

/**
 * A copy of the input whose body sits in an ArrayBuffer of its own, plus that buffer to transfer to a Worker: the
 * transfer then moves exactly these bytes and never detaches memory the caller may still hold (a copy of 100 KB
 * costs microseconds; a structured clone without transfer would copy too).
 */
export function transferableCopy(input: EvaluationInput): { input: EvaluationInput; transfer: ArrayBuffer[] } {
  const own = input.body.slice();
  return { input: { ...input, body: own }, transfer: [own.buffer as ArrayBuffer] };
}
