// JSON text that Postgres built for a response, answered as it is: never parsed and written again, so numbers keep
// their digits (bigint, numeric 4.50) and objects and arrays their bytes (v1 DML answers, as the original's).

export class JsonText {
  constructor(readonly text: string) {}
}

/** A response's JSON text: JSON.stringify's, with every JsonText spliced in as it is (a bulk answers an array). */
export function responseText(value: unknown): string {
  if (value instanceof JsonText) return value.text;
  if (Array.isArray(value) && value.some((v) => v instanceof JsonText)) return `[${value.map((v) => responseText(v ?? null)).join(',')}]`;
  return JSON.stringify(value);
}
