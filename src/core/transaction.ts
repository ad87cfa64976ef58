// One transaction on one connection: BEGIN, the work, COMMIT; ROLLBACK when the work (or the COMMIT) throws, and
// the error passed on. Every transaction the engine opens goes through here.

/** A connection (pg's clients are, structurally: core imports no driver). */
export interface TransactionClient {
  query(text: string): Promise<unknown>;
}

/**
 * Runs `work` in a transaction on `client`; when it throws, rolls back and rethrows. A ROLLBACK that fails as well
 * means the connection is broken: `onBroken` is told, so that its owner drops it rather than reuse it.
 */
export async function inTransaction<T>(
  client: TransactionClient, work: () => Promise<T>, onBroken?: () => void, begin = 'BEGIN',
): Promise<T> {
  try {
    await client.query(begin);
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => onBroken?.());
    throw e;
  }
}
