/** Failure notes: where a crawl's failure goes when the crawl store itself refuses it. */
/**
 * Where a crawl's failure is noted when the crawl store itself cannot take it (the extension: storage.local). Small:
 * one reason per failed crawl, cleared once the store holds the 'error' status.
 */
export interface FailureNotes {
  note(crawlId: string, reason: string): Promise<void>;
  all(): Promise<Record<string, string>>;
  clear(crawlId: string): Promise<void>;
}

/** Failure notes that live as long as the process (tests, the command line). */
export function memoryFailureNotes(): FailureNotes {
  const notes = new Map<string, string>();
  return {
    async note(id, reason) {
      notes.set(id, reason);
    },
    async all() {
      return Object.fromEntries(notes);
    },
    async clear(id) {
      notes.delete(id);
    },
  };
}
