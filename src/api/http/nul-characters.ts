/**
 * Postgres text and jsonb cannot hold U+0000 (NUL): a string carrying one fails in whatever
 * query it reaches, which the client would see as a 500. Requests are refused at the door
 * instead, naming where the character is.
 */
export const NUL = '\u0000';

/** Where in `value` a string (or an object key) holds NUL, as a dotted path below `at`; null if nowhere. */
export function nulCharacterAt(value: unknown, at: string): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? at : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulCharacterAt(value[i], `${at}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes(NUL)) return `${at} (a key)`;
      const found = nulCharacterAt(v, `${at}.${k}`);
      if (found !== null) return found;
    }
  }
  return null;
}

export function nulCharacterMessage(at: string): string {
  return `${at} contains the character U+0000 (NUL), which no text here may hold.`;
}
