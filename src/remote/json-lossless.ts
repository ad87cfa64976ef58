// JSON read and written again without losing integers beyond 2^53 (bigint columns answered as numbers, e.g.
// snowflake ids used as join keys): remote joins parse the database's answer, fill in the remotes' values and
// serialise it again. Texts with no run of 16 digits take JSON.parse / JSON.stringify (native, the common case);
// the others the lossless-json library, keeping such integers as their text (RawNumber), printed back as they came.
import { LosslessNumber, parse, stringify } from 'lossless-json';

/** An integer too large for a double, kept as its JSON text (`.value`). */
export { LosslessNumber as RawNumber };

const MAYBE_BIG = /\d{16}/;
const INTEGER = /^-?\d+$/;

/** Only integers that a double would round are kept as text; fractions and exponents are numbers, as JSON.parse has them. */
const parseNumber = (text: string): number | LosslessNumber => {
  const n = Number(text);
  return INTEGER.test(text) && !Number.isSafeInteger(n) ? new LosslessNumber(text) : n;
};

/** A parsed text and whether it holds RawNumbers (then it must be written with stringifyLossless). */
export function parseLossless(text: string): { value: unknown; big: boolean } {
  if (!MAYBE_BIG.test(text)) return { value: JSON.parse(text), big: false };
  let big = false;
  const value = parse(text, null, (t) => {
    const v = parseNumber(t);
    if (v instanceof LosslessNumber) big = true;
    return v;
  });
  return { value, big };
}

export function stringifyLossless(v: unknown): string {
  return stringify(v) ?? 'null';
}
