// STUB (owned by the auth work): who is asking. Session variable names are lower-cased (x-engine-user-id).
export interface Session {
  role: string;
  /** All x-engine-* session variables, names lower-cased, values strings (x-engine-role included). */
  variables: Record<string, string>;
}

export const isAdmin = (s: Session): boolean => s.role === 'admin';

/** No-auth mode: role from X-Engine-Role, admin by default; X-Engine-* headers become variables. */
export function sessionFromHeaders(headers: Record<string, string | string[] | undefined>): Session {
  const variables: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (name.startsWith('x-engine-') && typeof v === 'string' && name !== 'x-engine-admin-secret') variables[name] = v;
  }
  return { role: variables['x-engine-role'] ?? 'admin', variables };
}
