/**
 * The shape engine data must have, checked the way uBlacklist checks its engine files: a schema (valibot) for the
 * structure and, for every CSS selector, a parse (css-what) limited to what both browsers and linkedom (the unit
 * tests' DOM) understand. A selector that does not parse would silently match nothing in the extractor (it treats
 * bad selectors as matching nothing, so one bad line cannot break a page); here it fails the unit tests and the build.
 *
 * Node and build-time only: the extension bundles the engine data, not this checker.
 */
import { parse as parseSelector, type Selector as ParsedSelector } from 'css-what';
import * as v from 'valibot';
import type { EngineSpec } from './types';

/**
 * Pseudo-classes the extractor's selectors may use: standard ones that Chrome, Firefox (ESR 128) and css-select
 * (linkedom) all implement. css-select's own extensions (:contains, :header, ...) would parse in tests and fail in
 * the browser; pseudo-elements never match an element.
 */
const PSEUDO_CLASSES = new Set([
  'not',
  'is',
  'where',
  'has',
  'first-child',
  'last-child',
  'only-child',
  'nth-child',
  'nth-last-child',
  'first-of-type',
  'last-of-type',
  'only-of-type',
  'nth-of-type',
  'nth-last-of-type',
  'empty',
  'root',
]);

/** Why `selector` cannot be used, or null when it can. */
export function selectorProblem(selector: string): string | null {
  if (selector.trim() === '') return 'empty selector';
  let parsed: ParsedSelector[][];
  try {
    parsed = parseSelector(selector);
  } catch (error) {
    return `does not parse (${error instanceof Error ? error.message : String(error)})`;
  }
  const check = (groups: ParsedSelector[][]): string | null => {
    for (const group of groups) {
      for (const token of group) {
        if (token.type === 'pseudo-element') return `pseudo-element ::${token.name} never matches an element`;
        if (token.type === 'pseudo') {
          if (!PSEUDO_CLASSES.has(token.name)) return `:${token.name} is not a standard pseudo-class both browsers support`;
          if (Array.isArray(token.data)) {
            const inner = check(token.data);
            if (inner) return inner;
          }
        }
      }
    }
    return null;
  };
  return check(parsed);
}

const SelectorSchema = v.pipe(
  v.string(),
  v.check(
    (s) => selectorProblem(s) === null,
    (issue) => `invalid CSS selector "${issue.input}": ${selectorProblem(String(issue.input))}`,
  ),
);
const Selectors = v.array(SelectorSchema);
const NonEmpty = v.pipe(v.string(), v.trim(), v.minLength(1));
/** 'www.google.*', '*.search.yahoo.com', 'bing.com': labels of letters, digits and '-', an optional '*.' prefix and '.*' suffix. */
const HostPattern = v.pipe(
  v.string(),
  v.regex(
    /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(\.\*)?$/,
    'host pattern: lower-case labels, optional leading "*." and trailing ".*"',
  ),
);
const Path = v.pipe(v.string(), v.startsWith('/', 'paths start with "/"'));

const RedirectRuleSchema = v.pipe(
  v.strictObject({
    hosts: v.optional(v.array(HostPattern)),
    pathPrefix: v.optional(Path),
    param: v.optional(NonEmpty),
    pathSegment: v.optional(NonEmpty),
    prefix: v.optional(NonEmpty),
    decode: v.optional(v.literal('base64url')),
    opaque: v.optional(v.literal(true)),
  }),
  v.check(
    (r) => (r.param === undefined) !== (r.pathSegment === undefined),
    'a redirect rule has exactly one of param / pathSegment',
  ),
);

/** The schema of one engine file (lib/app/serp/engines/*.ts); unknown keys are errors, so typos do not pass silently. */
export const EngineSpecSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]*$/, 'id: lower-case letters, digits and "-"')),
  name: NonEmpty,
  hosts: v.pipe(v.array(HostPattern), v.minLength(1)),
  paths: v.pipe(v.array(Path), v.minLength(1)),
  queryParam: v.pipe(v.array(NonEmpty), v.minLength(1)),
  queryInput: v.optional(Selectors),
  results: v.strictObject({
    container: v.pipe(Selectors, v.minLength(1)),
    title: v.pipe(Selectors, v.minLength(1)),
    titleExclude: v.optional(Selectors),
    link: v.pipe(Selectors, v.minLength(1)),
    snippet: Selectors,
  }),
  exclude: Selectors,
  sectionHeadings: v.optional(Selectors),
  adMarkers: v.optional(Selectors),
  redirect: v.optional(v.array(RedirectRuleSchema)),
  targetAttributes: v.optional(
    v.array(
      v.strictObject({
        name: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]*$/, 'attribute name')),
        on: v.optional(SelectorSchema),
      }),
    ),
  ),
  navigationPaths: v.optional(v.array(Path)),
  serviceDomains: v.optional(v.array(HostPattern)),
  blocked: v.optional(
    v.strictObject({ challenge: v.optional(Selectors), consent: v.optional(Selectors), noResults: v.optional(Selectors) }),
  ),
  challenge: v.optional(v.strictObject({ paths: v.pipe(v.array(Path), v.minLength(1)), continueParam: NonEmpty })),
});

// The schema and the TypeScript interface describe the same data: each must accept what the other does.
type SchemaOutput = v.InferOutput<typeof EngineSpecSchema>;
const _schemaFitsSpec: (s: SchemaOutput) => EngineSpec = (s) => s;
const _specFitsSchema: (s: EngineSpec) => SchemaOutput = (s) => s;
void _schemaFitsSpec;
void _specFitsSchema;

/** Every problem with the engine data, as 'engine id: path: message' lines (empty when the data is sound). */
export function engineProblems(engines: readonly unknown[]): string[] {
  const problems: string[] = [];
  const ids = new Map<string, number>();
  engines.forEach((engine, index) => {
    const result = v.safeParse(EngineSpecSchema, engine);
    const id = (engine as { id?: unknown })?.id;
    const label = typeof id === 'string' ? id : `#${index}`;
    if (typeof id === 'string') ids.set(id, (ids.get(id) ?? 0) + 1);
    if (!result.success) {
      for (const issue of result.issues) problems.push(`${label}: ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`);
    }
  });
  for (const [id, n] of ids) if (n > 1) problems.push(`${id}: the id is used by ${n} engines`);
  return problems;
}

/** Throws an error listing every problem when the engine data is not sound (used by the build and the tests). */
export function assertEngines(engines: readonly unknown[]): void {
  const problems = engineProblems(engines);
  if (problems.length > 0) throw new Error(`Engine data (lib/app/serp/engines) is invalid:\n  ${problems.join('\n  ')}`);
}
