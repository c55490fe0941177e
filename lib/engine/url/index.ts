export { canonicalizeUrl, isTrackingParam } from './canonical';
export { checkAddress, checkHost, checkUrl, hostKind, isPrivateHost } from './rules';
export type { UrlPolicy, UrlCheck } from './rules';
