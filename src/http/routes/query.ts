// POST /v1/query: the metadata API (admin only; v1 DML for any role). Metadata operations run in one transaction
// via metadata/write.ts.
import type Router from '@koa/router';
import { EngineError, isEngineError, metadataErrorBody } from '../../core/errors.js';
import { runMetadataWrite } from '../../metadata/write.js';
import { readJson } from '../body.js';
import { responseText } from '../../core/json-text.js';
import { accessOf, anyRoleMay } from '../../metadata/operations.js';
import { WRITE_LSN_HEADER } from '../../execute/graphql.js';
import { runDmlRequest } from '../../metadata/dml/run.js';
import { sessionFor } from '../session.js';
import { showInternal } from '../../config/internal-errors.js';
import type { Runtime } from '../runtime.js';
import type { Session } from '../../auth/session.js';

export const METADATA_VERSION_HEADER = 'x-engine-metadata-version';

export function queryRoutes(router: Router, rt: Runtime): void {
  router.post('/v1/query', async (ctx) => {
    const requestId = ctx.state.requestId as string;
    let session: Session | null = null;
    try {
      session = await sessionFor(ctx.req, rt);
      ctx.state.userVars = session.variables;
      const body = await readJson(ctx);
      // v1 DML (select/count/insert/update/delete) runs as the caller's role; everything else is admin only.
      const dataOnly = anyRoleMay(body);
      if (session.role !== 'admin' && !dataOnly) throw new EngineError('access-denied', 'restricted access : admin only', { path: '$.args' });
      if (!rt.store.ready) throw new EngineError('unexpected', rt.store.problem ?? 'metadata not loaded yet', { status: 500 });
      const who = { role: session.role, requestId, session, stringifyNumeric: rt.config.stringifyNumericTypes };
      // Data-only requests (v1 DML) need no metadata writer lock.
      const result = dataOnly
        ? { response: await runDmlRequest(rt.pool, rt.store.get(), rt.write.projector.cacheChecks, body, who) }
        : await runMetadataWrite(rt.write, body, who);
      // A write's WAL position after its commit, for reads that must see it (read replicas).
      if (rt.reads && accessOf(body) === 'write') {
        const lsn = await rt.reads.committed();
        if (lsn !== null) ctx.set(WRITE_LSN_HEADER, lsn);
      }
      ctx.status = 200;
      ctx.type = 'application/json';
      ctx.body = responseText(result.response ?? null);
    } catch (e) {
      if (!isEngineError(e)) throw e;
      ctx.status = e.status;
      ctx.body = metadataErrorBody(e, showInternal(session, rt.config));
      ctx.state.error = e;
    } finally {
      ctx.set(METADATA_VERSION_HEADER, String(Math.max(rt.store.seq, 0)));
    }
  });
}
