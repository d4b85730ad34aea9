/**
 * Checks every request's JSON before anything else reads it, because three kinds of input fail
 * deep inside the server, where the client would see a 500:
 * - text holding U+0000 (NUL), which Postgres text and jsonb cannot store;
 * - text holding half of a UTF-16 surrogate pair, which is not Unicode at all (jsonb refuses
 *   its escape, and the query layer's own JSON does too);
 * - nesting deeper than recursive code (JSON.stringify, the DTO transformer) can follow.
 * No real request comes near the depth limit: the deepest orders are about six levels down.
 */
export const MAX_INPUT_DEPTH = 32;

export type TextProblemCode = 'request/nul_character' | 'request/unpaired_surrogate';

export interface InputProblem {
  code: TextProblemCode | 'request/too_deep';
  /** Where, as a dotted path from the name given (e.g. "body.orders[2].unit"). */
  field: string;
  message: string;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What is wrong with a piece of text, said of `at` (e.g. "body.name"); null if nothing. */
export function textProblem(text: string, at: string): InputProblem | null {
  if (text.includes('\u0000')) return { code: 'request/nul_character', field: at, message: `${at} contains the character U+0000 (NUL), which no text here may hold.` };
  if (LONE_SURROGATE.test(text)) return { code: 'request/unpaired_surrogate', field: at, message: `${at} contains half of a UTF-16 surrogate pair (U+D800 to U+DFFF alone), which is not Unicode text.` };
  return null;
}

/** The first problem in `value`, or null. Never recurses deeper than MAX_INPUT_DEPTH itself. */
export function inputProblem(value: unknown, at: string, depth = 0): InputProblem | null {
  if (typeof value === 'string') return textProblem(value, at);
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
    const key = textProblem(k, `a key of ${at}`);
    if (key !== null) return key;
    const found = inputProblem(v, `${at}.${k}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
