export { pagesOverCap, WATCH_PAGE_FACTOR, watchPageCap } from './cap';
export { annotatePage, diffPages, type KnownPage, type WatchDiff } from './diff';
export {
  checkSchedule,
  conditionsVerdict,
  type DeviceConditions,
  isDue,
  LOW_BATTERY,
  nextDueAfter,
  PERIOD_MS,
  SCHEDULES,
} from './schedule';
export {
  VIEW_REST_ROWS,
  type WatchNotice,
  type WatchNoticeKey,
  type WatchSay,
  Watcher,
  type WatcherDeps,
  type WatchView,
} from './watcher';
