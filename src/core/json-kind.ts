// The name the original's JSON library (Aeson) gives a value's kind in its messages: "expected Object, but
// encountered Array". A missing value (undefined) reads as Null.
export type JsonKind = 'Null' | 'Array' | 'Object' | 'String' | 'Number' | 'Boolean';

export function jsonKind(v: unknown): JsonKind {
  if (v === null || v === undefined) return 'Null';
  if (Array.isArray(v)) return 'Array';
  switch (typeof v) {
    case 'string': return 'String';
    case 'number': case 'bigint': return 'Number';
    case 'boolean': return 'Boolean';
    default: return 'Object';
  }
}
