import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { envSchema, loadConfig } from './config.schema';

// What an operator reads (.env.example, README) must say what the schema does.

const root = resolve(__dirname, '../..');
const example = readFileSync(resolve(root, '.env.example'), 'utf8').split('\n');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
const variables = Object.keys(envSchema.shape) as Array<keyof typeof envSchema.shape>;

/** `NAME=value` and `# NAME=value` lines: the uncommented ones state defaults, the others examples. */
const assignments = example.flatMap((line, index) => {
  const m = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
  return m ? [{ name: m[2]!, value: m[3]!, commented: !!m[1], index }] : [];
});

/** The comment lines right above a variable, up to a blank line or the previous variable. */
function commentAbove(index: number): string {
  const lines: string[] = [];
  for (let i = index - 1; i >= 0 && example[i]!.startsWith('#') && !assignments.some((a) => a.index === i); i--) lines.unshift(example[i]!);
  return lines.join(' ');
}

function inner(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodDefault || schema instanceof z.ZodOptional ? inner(schema.unwrap() as z.ZodType) : schema;
}

function hasDefault(name: keyof typeof envSchema.shape): boolean {
  return envSchema.shape[name] instanceof z.ZodDefault;
}

describe('.env.example and the README against the configuration schema', () => {
  it('.env.example names every variable the schema reads, and no other', () => {
    const named = assignments.map((a) => a.name);
    expect([...named].sort()).toEqual([...new Set(named)].sort());
    expect([...named].sort()).toEqual([...variables].sort());
  });

  it('states each default as the value of an uncommented line, and leaves a variable without one commented out', () => {
    expect(assignments.filter((a) => a.commented === hasDefault(a.name as keyof typeof envSchema.shape)).map((a) => a.name)).toEqual([]);
    const stated = Object.fromEntries(assignments.filter((a) => !a.commented).map((a) => [a.name, a.value]));
    expect(loadConfig(stated)).toEqual(loadConfig({}));
  });

  it('gives the range of every number and the values of every choice right above it', () => {
    // Free-form strings (URLs, hosts, secrets) have no range to state.
    const constrained = assignments.flatMap((a) => {
      const schema = inner(envSchema.shape[a.name as keyof typeof envSchema.shape] as z.ZodType);
      const wanted =
        schema instanceof z.ZodNumber
          ? schema.safeParse(schema.minValue).success ? `${schema.minValue}-${schema.maxValue}` : `more than ${schema.minValue}, at most ${schema.maxValue}`
          : schema instanceof z.ZodEnum ? schema.options.join(' | ')
          : schema instanceof z.ZodPipe ? 'true | false' // the booleans
          : null;
      return wanted === null ? [] : [{ ...a, wanted }];
    });
    expect(constrained.length).toBeGreaterThan(10);
    expect(constrained.filter((a) => !commentAbove(a.index).includes(a.wanted)).map((a) => `${a.name}: ${a.wanted}`)).toEqual([]);
  });

  it('the README names every variable, and a plain number it gives in brackets after one is its default', () => {
    expect(variables.filter((name) => !readme.includes(`\`${name}\``) && !readme.includes(`\`${name}=`))).toEqual([]);
    const defaults = loadConfigDefaults();
    const stated = [...readme.matchAll(/`([A-Z][A-Z0-9_]+)` \((\d+)[),;]/g)];
    expect(stated.length).toBeGreaterThan(10);
    expect(stated.filter(([, name, value]) => defaults[name!] !== value).map(([text]) => text)).toEqual([]);
  });
});

function loadConfigDefaults(): Record<string, string> {
  const parsed = envSchema.parse({}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
}
