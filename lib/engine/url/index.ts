export { canonicalizeUrl, isTrackingParam } from './canonical';
export { checkAddress, checkHost, checkUrl, hostKind, isPrivateHost, urlChecker } from './rules';
export type { UrlPolicy, UrlCheck } from './rules';
