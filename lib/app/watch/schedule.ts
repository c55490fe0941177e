/**
 * When a watch checks its topic: its period, the next due time, catching up once after missed runs, and whether the
 * browser says now is a bad moment (a metered connection, a low battery). Pure functions of a time and what the
 * browser reported.
 */
import type { WatchSchedule, WatchSkipReason, WatchState } from '../model/records';

const HOUR = 3_600_000;

/** Time between two scheduled checks. */
export const PERIOD_MS: Record<WatchSchedule, number> = { daily: 24 * HOUR, weekly: 7 * 24 * HOUR };

export const SCHEDULES: readonly WatchSchedule[] = ['daily', 'weekly'];

/** The schedule from untrusted input (a message); throws on anything else. */
export function checkSchedule(value: unknown): WatchSchedule {
  if (value === 'daily' || value === 'weekly') return value;
  throw new Error('A watch checks daily or weekly.');
}

/**
 * When the check after one that started at `startedAt` is due. A check is due one period after the last one
 * started, and however many periods were missed (the browser was closed), one check catches up: the next is due a
 * period after that one, not at the missed times.
 */
export function nextDueAfter(startedAt: number, schedule: WatchSchedule): number {
  return startedAt + PERIOD_MS[schedule];
}

/** Whether a scheduled check is due at `now` (a check running now is never due again). */
export function isDue(watch: WatchState, now: number): boolean {
  if (watch.check && watch.check.endedAt === undefined) return false;
  return now >= watch.nextDueAt;
}

/**
 * What the browser tells about the device, where it tells anything (each field absent when it does not): Chrome
 * has `navigator.connection` (saveData: the user's or the system's data saver; type 'cellular' on ChromeOS and
 * Android) in its service worker, and `navigator.getBattery()` only in documents; Firefox has neither.
 */
export interface DeviceConditions {
  saveData?: boolean;
  /** The connection is known to be metered (cellular). */
  metered?: boolean;
  battery?: { charging: boolean; level: number };
}

/** Below this battery level (and not charging), a scheduled check waits. */
export const LOW_BATTERY = 0.2;

/** Why a scheduled check should wait now, or null when nothing the browser said stands in the way. */
export function conditionsVerdict(conditions: DeviceConditions): WatchSkipReason | null {
  if (conditions.saveData || conditions.metered) return 'metered';
  const battery = conditions.battery;
  if (battery && !battery.charging && Number.isFinite(battery.level) && battery.level < LOW_BATTERY) return 'battery';
  return null;
}
