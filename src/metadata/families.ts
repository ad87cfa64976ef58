// The I/O half of the event-trigger and remote-schema operations, run after their (pure) decide: a new trigger's
// environment variables must be set, and a new remote schema is resolved and introspected before it is kept.
import type { Command } from '../../events/decide/index.js';
import { eventTriggerEnvError } from '../../events/decide/event-triggers.js';
import { introspectRemote, resolveRemote } from '../remote/introspect.js';

export async function checkFamilyCommand(cmd: Command, env: Record<string, string | undefined> = process.env): Promise<void> {
  if (cmd.op === 'create_event_trigger') {
    const e = eventTriggerEnvError(cmd.table, cmd.trigger, env);
    if (e) throw e;
  } else if (cmd.op === 'add_remote_schema') {
    await introspectRemote(resolveRemote(cmd.remote_schema.definition, env));
  }
}
