/**
 * What JSON.parse does not tell of a scenario file. `error`: the offset of the first syntax
 * error (Node's own message does not always give one), or null. `duplicates`: the path of every
 * key an object repeats, which JSON.parse lets the last one win: a unit type or zone copied and
 * not renamed would silently replace the first.
 */
export interface JsonScan {
  error: number | null;
  duplicates: PropertyKey[][];
}

/** A small recursive-descent reading of the text; scenario files are read once, at start. */
export function scanJson(t: string): JsonScan {
  let i = 0;
  const duplicates: PropertyKey[][] = [];
  const path: PropertyKey[] = [];
  const ws = () => {
    while (i < t.length && ' \t\r\n'.includes(t[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const lit = (w: string) => (t.startsWith(w, i) ? void (i += w.length) : fail());
  const str = (): string => {
    if (t[i] !== '"') fail();
    const start = i;
    for (i++; i < t.length && t[i] !== '"'; i++) if (t[i] === '\\') i++;
    if (t[i] !== '"') fail();
    i++;
    try {
      return JSON.parse(t.slice(start, i)) as string;
    } catch {
      return fail();
    }
  };
  const object = () => {
    i++;
    ws();
    if (t[i] === '}') return void i++;
    const keys = new Set<string>();
    for (;;) {
      ws();
      const key = str();
      if (keys.has(key)) duplicates.push([...path, key]);
      keys.add(key);
      ws();
      lit(':');
      path.push(key);
      value();
      path.pop();
      ws();
      if (t[i] === ',') i++;
      else if (t[i] === '}') return void i++;
      else fail();
    }
  };
  const array = () => {
    i++;
    ws();
    if (t[i] === ']') return void i++;
    for (let k = 0; ; k++) {
      path.push(k);
      value();
      path.pop();
      ws();
      if (t[i] === ',') i++;
      else if (t[i] === ']') return void i++;
      else fail();
    }
  };
  const value = (): void => {
    ws();
    const c = t[i];
    if (c === '{') object();
    else if (c === '[') array();
    else if (c === '"') str();
    else if (c === 't') lit('true');
    else if (c === 'f') lit('false');
    else if (c === 'n') lit('null');
    else {
      const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(t.slice(i, i + 400));
      if (m === null) fail();
      i += m![0].length;
    }
  };
  try {
    if (t.charCodeAt(0) === 0xfeff) fail();
    value();
    ws();
    if (i < t.length) fail();
  } catch (pos) {
    return { error: typeof pos === 'number' ? pos : i, duplicates };
  }
  return { error: null, duplicates };
}
