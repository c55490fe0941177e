/** The bounded crawl frontier: a priority queue (every strategy's; Breadth-First gives every link one score). */
export { PriorityFrontier, type PriorityFrontierState, type PriorityFrontierOptions } from './priority-frontier';
export type { AddResult } from './types';
