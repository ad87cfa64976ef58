// Whether an error body may carry `internal` (the statement, the Postgres error, a webhook's answer): with
// --dev-mode always, else for admin requests when --admin-internal-errors is on (the default).
import type { ServerConfig } from './config.js';

export const showInternal = (session: { role: string } | null, config: Pick<ServerConfig, 'devMode' | 'adminInternalErrors'>): boolean =>
  config.devMode || (session?.role === 'admin' && config.adminInternalErrors);
