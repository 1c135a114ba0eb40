import crypto from 'node:crypto';
import type { Db } from '../db/db';

/**
 * The first two steps of an event's sales funnel, marked where they happen (the BIB and selfie
 * searches that found photos, the cart bills): one row per visitor and step, so the Event Dashboard
 * counts people, not clicks. A visitor is the search session when there is one, else a hash of the
 * client address (never the address itself). A failed mark never fails the search or the cart.
 */
export type FunnelMark = 'search' | 'cart';

export function funnelVisitor(client: { sessionId: number | null; ip: string }): string {
  return client.sessionId !== null ? `s${client.sessionId}` : `a${crypto.createHash('sha256').update(client.ip).digest('hex').slice(0, 24)}`;
}

export interface FunnelMarkSettings {
  /** How long a first mark waits for others before they are written together. */
  delayMs: number;
  /** Marks waiting that are written at once, without waiting for the delay. */
  batch: number;
  /** Most marks waiting: beyond, marks are dropped (and counted in the log) rather than held. */
  maxPending: number;
}

export const FUNNEL_MARK_SETTINGS: FunnelMarkSettings = { delayMs: 250, batch: 500, maxPending: 10_000 };

/**
 * Funnel marks written in the background, many in one statement: a search or a cart bill only
 * queues its mark (no round trip, no insert and trigger per request), and the same visitor's marks
 * of one step within the delay are written once. The queue is bounded, so a database that cannot
 * keep up costs marks, never memory or searches. What reads the counts (the Event Dashboard) calls
 * flush() first, so this process's marks are in; other API processes' arrive within the delay. The
 * database's close flushes what waits.
 */
export class FunnelMarks {
  private pending = new Map<string, { eventId: number; step: FunnelMark; visitor: string }>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(
    private readonly db: Db,
    private readonly log: (message: string) => void,
    private readonly settings: FunnelMarkSettings = FUNNEL_MARK_SETTINGS,
  ) {
    db.beforeClose?.(() => this.flush());
  }

  mark(eventId: number, step: FunnelMark, client: { sessionId: number | null; ip: string }): void {
    const visitor = funnelVisitor(client);
    const key = `${eventId} ${step} ${visitor}`;
    if (this.pending.has(key)) return;
    if (this.pending.size >= this.settings.maxPending) {
      this.dropped++;
      return;
    }
    this.pending.set(key, { eventId, step, visitor });
    if (this.pending.size >= this.settings.batch) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.settings.delayMs);
      // Waiting marks never keep a process alive: the database's close writes them.
      this.timer.unref();
    }
  }

  /** Writes every mark queued so far; resolves when they are in (a failure is logged, never thrown). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const marks = [...this.pending.values()];
    this.pending.clear();
    const dropped = this.dropped;
    this.dropped = 0;
    this.writing = this.writing.then(() => this.write(marks, dropped));
    return this.writing;
  }

  private async write(marks: Array<{ eventId: number; step: FunnelMark; visitor: string }>, dropped: number): Promise<void> {
    if (dropped > 0) this.log(`funnel marks dropped: ${dropped} (more than ${this.settings.maxPending} waiting)`);
    if (marks.length === 0) return;
    try {
      await this.db.query(
        'insert into event_funnel_marks (event_id, step, visitor) select * from unnest($1::int[], $2::text[], $3::text[]) on conflict do nothing',
        [marks.map((m) => m.eventId), marks.map((m) => m.step), marks.map((m) => m.visitor)],
        // The marks' tables are read by the Event Dashboard alone, never by a cached read.
        { keepsCache: true },
      );
    } catch (error) {
      this.log(`funnel marks not written (${marks.length}): ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
