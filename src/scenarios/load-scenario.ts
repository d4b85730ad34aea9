import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenario } from '../rules/model/parse-scenario';
import { SCENARIO_FILES, Scenario } from '../rules/model/scenario';
import { formatPath, ScenarioError } from '../rules/model/scenario-error';
import { scanJson } from './json-scan';

/**
 * Reads a scenario folder (src/scenarios/<id>/) and validates it with the
 * pure schema of src/rules/model. Only the files the schema names are read
 * (README.md and other notes are left alone). Any mistake — a missing or
 * unreadable file, JSON that does not parse, a key an object repeats, a value the schema refuses — throws one
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
      continue;
    }
    for (const path of scanJson(text).duplicates) issues.push({ file, path: formatPath(path), message: 'this key appears twice in its object: JSON keeps only the last, so the first would be lost unnoticed' });
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
  const pos = scanJson(text).error ?? text.length;
  const before = text.slice(0, pos).split('\n');
  return `${message} (line ${before.length}, column ${before[before.length - 1]!.length + 1})`;
}
