// WAL positions (LSNs) as Postgres writes them ("16/B374D848": the high and low 32 bits in hex) and as numbers to
// compare. A JS number holds a position exactly up to 2^53 bytes of WAL (8 PiB), far beyond any server's lifetime.

const LSN = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/;

/** The position of an LSN text, or null when it is not one. */
export function parseLsn(text: string): number | null {
  const m = LSN.exec(text.trim());
  if (m === null) return null;
  return parseInt(m[1], 16) * 2 ** 32 + parseInt(m[2], 16);
}

/** A position as Postgres writes it. */
export function formatLsn(pos: number): string {
  const hi = Math.floor(pos / 2 ** 32);
  const lo = pos - hi * 2 ** 32;
  return `${hi.toString(16).toUpperCase()}/${lo.toString(16).toUpperCase()}`;
}
