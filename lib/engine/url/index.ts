export { canonicalizeUrl, isTrackingParam } from './canonical';
export { checkUrl, isPrivateHost } from './rules';
export type { UrlPolicy, UrlCheck } from './rules';
