/** Bounded crawl frontiers: a priority queue (Best-N-First and friends) and a FIFO (Breadth-First). */
export { PriorityFrontier, type PriorityFrontierState, type PriorityFrontierOptions } from './priority-frontier';
export { FifoFrontier, type FifoFrontierState } from './fifo-frontier';
export type { AddResult, Frontier } from './types';
