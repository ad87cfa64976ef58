// STUB (owned by the write-side work): the in-memory metadata the log folds into.
export type Metadata = Record<string, unknown>;
export const emptyMetadata = (): Metadata => ({});
