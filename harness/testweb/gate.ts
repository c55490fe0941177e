/**
 * Holds the test web's answers until a test releases them: `startTestWeb({ hold: gate.hold })`.
 *
 * A crawl whose requests are held cannot finish, and one whose every answered request has been stored is in a known
 * state: tests that pause, stop or kill a crawl mid-way use this instead of racing a running crawl.
 */
import type { RequestLog } from './server';

export class ResponseGate {
  /** How many more requests are answered before the gate holds them. */
  private allowance = Number.POSITIVE_INFINITY;
  private readonly waiting: { request: RequestLog; settle: (outcome: 'answer' | 'drop') => void }[] = [];
  /** Requests the gate let through, in order (at once or after being held). */
  readonly answered: RequestLog[] = [];
  /** Requests whose connection the gate closed unanswered ({@link drop}). */
  readonly dropped: RequestLog[] = [];

  /** The server's hook: resolves when the request may be answered (or is to be dropped); undefined: answer now. */
  readonly hold = (request: RequestLog): Promise<'answer' | 'drop'> | undefined => {
    if (this.allowance > 0) {
      this.allowance--;
      this.answered.push(request);
      return undefined;
    }
    return new Promise((settle) => this.waiting.push({ request, settle }));
  };

  /** From now on: answer `n` more requests (those held first, oldest first), then hold the rest. `allow(0)` closes. */
  allow(n: number): void {
    if (!(n >= 0)) throw new Error(`allow(${n}): a count of requests, 0 or more`);
    this.allowance = n;
    while (this.allowance > 0 && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      this.allowance--;
      this.answered.push(next.request);
      next.settle('answer');
    }
  }

  /** Answers everything, held requests included, from now on. */
  open(): void {
    this.allow(Number.POSITIVE_INFINITY);
  }

  /** Closes the connections of the requests held now, unanswered (as a browser that died left them); returns them. */
  drop(): RequestLog[] {
    const gone = this.waiting.splice(0);
    for (const w of gone) {
      this.dropped.push(w.request);
      w.settle('drop');
    }
    return gone.map((w) => w.request);
  }

  /** The requests held now, oldest first. */
  held(): RequestLog[] {
    return this.waiting.map((w) => w.request);
  }
}
