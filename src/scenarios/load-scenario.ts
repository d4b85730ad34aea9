import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenario } from '../rules/model/parse-scenario';
import { SCENARIO_FILES, Scenario } from '../rules/model/scenario';
import { ScenarioError } from '../rules/model/scenario-error';

/**
 * Reads a scenario folder (src/scenarios/<id>/) and validates it with the
 * pure schema of src/rules/model. Only the files the schema names are read
 * (README.md and other notes are left alone). Any mistake — a missing or
 * unreadable file, JSON that does not parse, a value the schema refuses — throws one
 * ScenarioError naming the file and the JSON path; nothing is half-loaded.
 */
export function loadScenario(dir: string): Scenario {
  const name = dir.split(/[\\/]/).filter(Boolean).pop() ?? dir;
  if (!isDirectory(dir)) throw new ScenarioError(name, [{ file: dir, path: '', message: 'is not a scenario folder' }]);
  const present = new Set(readdirSync(dir));
  const files: Record<string, unknown> = {};
  const issues: { file: string; path: string; message: string }[] = [];
  for (const file of Object.keys(SCENARIO_FILES)) {
    if (!present.has(file)) continue; // parseScenario reports it missing
    let text: string;
    try {
      text = readFileSync(join(dir, file), 'utf8');
    } catch (e) {
      issues.push({ file, path: '', message: unreadable(e) });
      continue;
    }
    try {
      files[file] = JSON.parse(text) as unknown;
    } catch (e) {
      issues.push({ file, path: '', message: `is not valid JSON: ${jsonErrorWhere(text, e)}` });
    }
  }
  if (issues.length > 0) throw new ScenarioError(name, issues);
  return parseScenario(files, name);
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function unreadable(e: unknown): string {
  const code = (e as { code?: unknown }).code;
  if (code === 'EISDIR') return 'is a folder, not a file';
  return `cannot be read: ${typeof code === 'string' ? code : e instanceof Error ? e.message : String(e)}`;
}

/** The parser's message, with the line and column of the first syntax error. */
function jsonErrorWhere(text: string, e: unknown): string {
  const message = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 120);
  const pos = syntaxErrorOffset(text);
  const before = text.slice(0, pos).split('\n');
  return `${message} (line ${before.length}, column ${before[before.length - 1]!.length + 1})`;
}

/**
 * Offset of the first JSON syntax error (Node's own message does not always
 * give one). A small recursive-descent check, used only once parsing failed.
 */
function syntaxErrorOffset(t: string): number {
  let i = 0;
  const ws = () => {
    while (i < t.length && ' \t\r\n'.includes(t[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const lit = (w: string) => (t.startsWith(w, i) ? void (i += w.length) : fail());
  const str = () => {
    if (t[i] !== '"') fail();
    for (i++; i < t.length && t[i] !== '"'; i++) if (t[i] === '\\') i++;
    if (t[i] !== '"') fail();
    i++;
  };
  const value = (): void => {
    ws();
    const c = t[i];
    if (c === '{') {
      i++;
      ws();
      if (t[i] === '}') return void i++;
      for (;;) {
        ws();
        str();
        ws();
        lit(':');
        value();
        ws();
        if (t[i] === ',') i++;
        else if (t[i] === '}') return void i++;
        else fail();
      }
    } else if (c === '[') {
      i++;
      ws();
      if (t[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (t[i] === ',') i++;
        else if (t[i] === ']') return void i++;
        else fail();
      }
    } else if (c === '"') str();
    else if (c === 't') lit('true');
    else if (c === 'f') lit('false');
    else if (c === 'n') lit('null');
    else {
      const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(t.slice(i));
      if (m === null) fail();
      i += m![0].length;
    }
  };
  try {
    value();
    ws();
    if (i < t.length) fail();
  } catch (pos) {
    return typeof pos === 'number' ? pos : i;
  }
  return i;
}
