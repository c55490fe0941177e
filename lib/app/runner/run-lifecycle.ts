/**
 * The life of one run: one pass of a crawl through this background, from launch until its events end. One state,
 * the transitions in one table; the runner fires events and reads the state, it keeps no flags of its own.
 *
 *   running --pause--> pausing --pause point (nothing in flight, written)--> detaching --end--> ended  (crawl: paused)
 *      |                  |  <--resume--'
 *      |                  '--stop--> stopping --end--> ended                                          (crawl: stopped)
 *      '--stop--> stopping;   running --end--> ended                                                  (crawl: done/error)
 */

export type RunState =
  /** Fetching. Holds the one crawl slot. */
  | 'running'
  /** Pause asked: no new fetches; those in flight finish, then the pause point is written. Resume carries on. */
  | 'pausing'
  /** The pause point is written: the run ends, the crawl stays paused; Resume starts a new run from the checkpoint. */
  | 'detaching'
  /** Stop (or delete) asked: the run ends, the crawl becomes stopped. */
  | 'stopping'
  /** The crawl's events have ended and its final state is written. */
  | 'ended';

export type RunEvent = 'pause' | 'resume' | 'pause-point' | 'stop' | 'end';

/** Every allowed transition; an event missing here is refused in that state. */
export const RUN_TRANSITIONS: { readonly [S in RunState]: { readonly [E in RunEvent]?: RunState } } = {
  running: { pause: 'pausing', stop: 'stopping', end: 'ended' },
  pausing: { resume: 'running', 'pause-point': 'detaching', stop: 'stopping', end: 'ended' },
  detaching: { end: 'ended' },
  stopping: { end: 'ended' },
  ended: {},
};

export class RunLifecycle {
  private current: RunState = 'running';

  get state(): RunState {
    return this.current;
  }

  /** Applies an event. Returns false, changing nothing, when the event does not apply in the current state. */
  fire(event: RunEvent): boolean {
    const next = RUN_TRANSITIONS[this.current][event];
    if (next === undefined) return false;
    this.current = next;
    return true;
  }

  /** Whether the event would apply now. */
  can(event: RunEvent): boolean {
    return RUN_TRANSITIONS[this.current][event] !== undefined;
  }

  /** Running or winding down to a pause it can still take back: the crawl the UI shows as this background's. */
  get active(): boolean {
    return this.current === 'running' || this.current === 'pausing';
  }

  /** Fetching: the one crawl slot is taken and the background must stay awake. */
  get fetching(): boolean {
    return this.current === 'running';
  }
}
