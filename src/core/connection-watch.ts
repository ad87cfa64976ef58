// Whether a long-lived database connection (or a loop that needs the database) was lost, so that its return is told
// once: an `info` line with how long it was away. Its owner logs the loss and the reconnect attempts as before.
import { log } from './log.js';

export class ConnectionWatch {
  private lostAt: number | null = null;

  /** `type`: the log type of the line; `what`: the connection, as the line names it. */
  constructor(private readonly type: string, private readonly what: string) {}

  /** The connection failed (the first failure since it was up is the one counted from). */
  lost(): void {
    this.lostAt ??= Date.now();
  }

  /** The connection works: after a loss, one info line. */
  back(): void {
    if (this.lostAt === null) return;
    log.info(this.type, { message: `${this.what} is back`, down_ms: Date.now() - this.lostAt });
    this.lostAt = null;
  }
}
