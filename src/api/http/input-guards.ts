/**
 * Checks every request's JSON before anything else reads it, because two kinds of input fail
 * deep inside the server, where the client would see a 500:
 * - text holding U+0000 (NUL), which Postgres text and jsonb cannot store;
 * - nesting deeper than recursive code (JSON.stringify, the DTO transformer) can follow.
 * No real request comes near the depth limit: the deepest orders are about six levels down.
 */
export const NUL = '\u0000';
export const MAX_INPUT_DEPTH = 32;

export interface InputProblem {
  code: 'request/nul_character' | 'request/too_deep';
  /** Where, as a dotted path from the name given (e.g. "body.orders[2].unit"). */
  field: string;
  message: string;
}

export function nulCharacterMessage(at: string): string {
  return `${at} contains the character U+0000 (NUL), which no text here may hold.`;
}

/** The first problem in `value`, or null. Never recurses deeper than MAX_INPUT_DEPTH itself. */
export function inputProblem(value: unknown, at: string, depth = 0): InputProblem | null {
  if (typeof value === 'string') return value.includes(NUL) ? { code: 'request/nul_character', field: at, message: nulCharacterMessage(at) } : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_INPUT_DEPTH) return { code: 'request/too_deep', field: at, message: `${at} is nested more than ${MAX_INPUT_DEPTH} levels deep.` };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = inputProblem(value[i], `${at}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k.includes(NUL)) return { code: 'request/nul_character', field: `${at} (a key)`, message: nulCharacterMessage(`A key of ${at}`) };
    const found = inputProblem(v, `${at}.${k}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
