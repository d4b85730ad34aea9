/** The parts of an OpenAPI 3.0 document the REST tests read. */
export interface SchemaObject {
  $ref?: string;
  type?: string;
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  additionalProperties?: boolean | SchemaObject;
  allOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
}

export interface MediaTypeObject {
  schema?: SchemaObject;
}

export interface ResponseObject {
  description?: string;
  headers?: Record<string, { description?: string; schema?: SchemaObject }>;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: SchemaObject;
}

export interface OperationObject {
  operationId?: string;
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, MediaTypeObject> };
  responses: Record<string, ResponseObject>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, SchemaObject>; responses?: Record<string, ResponseObject> };
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the document, as "METHOD /path" with the operation. */
export function operations(doc: OpenApiDocument): Array<{ key: string; operation: OperationObject }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
  );
}

/** The methods the document's operations take at a concrete path, whichever path templates it matches. */
export function methodsAt(doc: OpenApiDocument, url: string): string[] {
  const path = url.split('?')[0]!;
  const methods = operations(doc)
    .map(({ key }) => key.split(' ') as [string, string])
    .filter(([, template]) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path))
    .map(([method]) => method);
  return [...new Set(methods)].sort();
}

/** The operation a request goes to: its method and its path matched against the document's path templates. */
export function operationFor(doc: OpenApiDocument, method: string, url: string): { key: string; operation: OperationObject } {
  const path = url.split('?')[0]!;
  const found = operations(doc).find(({ key }) => {
    const [m, template] = key.split(' ') as [string, string];
    return m === method.toUpperCase() && new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);
  });
  if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the OpenAPI document`);
  return found;
}

/** A value the schema admits, built from its shape; `pick` chooses among an enum's values (the first unless told). */
export function exampleOf(doc: OpenApiDocument, s: SchemaObject | undefined, pick: (xs: unknown[]) => unknown = (xs) => xs[0], depth = 0): unknown {
  if (s === undefined || depth > 6) return 'x';
  if (s.$ref) return exampleOf(doc, resolveRef(doc, s.$ref), pick, depth + 1);
  if (s.enum) return pick(s.enum);
  const variant = s.allOf?.[0] ?? s.oneOf?.[0] ?? s.anyOf?.[0];
  if (variant) return exampleOf(doc, variant, pick, depth + 1);
  switch (s.type) {
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, exampleOf(doc, v, pick, depth + 1)]));
    case 'array':
      return [exampleOf(doc, s.items, pick, depth + 1)];
    case 'integer':
      return 1;
    case 'number':
      return 1.5;
    case 'boolean':
      return true;
    default:
      return 'x';
  }
}

export function resolveRef(doc: OpenApiDocument, ref: string): SchemaObject | undefined {
  const prefix = '#/components/schemas/';
  return ref.startsWith(prefix) ? doc.components.schemas[ref.slice(prefix.length)] : undefined;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A schema that says nothing about the value (`{}` or only a description) admits any JSON. */
function unconstrained(s: SchemaObject): boolean {
  return !s.$ref && !s.type && !s.allOf && !s.oneOf && !s.anyOf && !s.enum && !s.properties && s.items === undefined;
}

/**
 * Where `value` (a parsed JSON body) departs from `schema`, one line per departure: a property
 * the schema marks required but the body lacks, a property the body has but the schema does not
 * name (unless additionalProperties allows it), null where the schema does not allow null, a
 * value of another type or outside the enum. Empty when the body matches.
 */
export function schemaMismatches(doc: OpenApiDocument, schema: SchemaObject, value: unknown, at = '$'): string[] {
  if (schema.$ref) {
    const target = resolveRef(doc, schema.$ref);
    return target ? schemaMismatches(doc, target, value, at) : [`${at}: unresolvable ${schema.$ref}`];
  }
  if (value === null) return schema.nullable || unconstrained(schema) ? [] : [`${at}: null, but the schema does not allow null`];
  const out: string[] = [];
  for (const part of schema.allOf ?? []) out.push(...schemaMismatches(doc, part, value, at));
  for (const alternatives of [schema.oneOf, schema.anyOf]) {
    if (alternatives && !alternatives.some((alt) => schemaMismatches(doc, alt, value, at).length === 0)) out.push(`${at}: matches none of the alternatives`);
  }
  if (schema.enum && !schema.enum.includes(value)) out.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  const type = schema.type ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value)) return [...out, `${at}: expected an object, got ${JSON.stringify(value)}`];
      out.push(...objectMismatches(doc, schema, value as Record<string, unknown>, at));
      break;
    case 'array':
      if (!Array.isArray(value)) return [...out, `${at}: expected an array, got ${JSON.stringify(value)}`];
      if (schema.items) value.forEach((item, i) => out.push(...schemaMismatches(doc, schema.items!, item, `${at}[${i}]`)));
      break;
    case 'string':
      if (typeof value !== 'string') out.push(`${at}: expected a string, got ${JSON.stringify(value)}`);
      else if (schema.format === 'date-time' && !DATE_TIME.test(value)) out.push(`${at}: ${JSON.stringify(value)} is not a date-time`);
      break;
    case 'integer':
      if (!Number.isInteger(value)) out.push(`${at}: expected an integer, got ${JSON.stringify(value)}`);
      break;
    case 'number':
      if (typeof value !== 'number') out.push(`${at}: expected a number, got ${JSON.stringify(value)}`);
      break;
    case 'boolean':
      if (typeof value !== 'boolean') out.push(`${at}: expected a boolean, got ${JSON.stringify(value)}`);
      break;
  }
  return out;
}

function objectMismatches(doc: OpenApiDocument, schema: SchemaObject, value: Record<string, unknown>, at: string): string[] {
  const out: string[] = [];
  for (const key of schema.required ?? []) if (!(key in value)) out.push(`${at}.${key}: required by the schema, missing from the body`);
  const properties = schema.properties ?? {};
  const extra = schema.additionalProperties;
  // An object schema that names no properties and says nothing of others is free-form.
  const closed = schema.properties !== undefined && extra === undefined;
  for (const [key, v] of Object.entries(value)) {
    const property = properties[key];
    if (property) out.push(...schemaMismatches(doc, property, v, `${at}.${key}`));
    else if (typeof extra === 'object') out.push(...schemaMismatches(doc, extra, v, `${at}.${key}`));
    else if (closed || extra === false) out.push(`${at}.${key}: in the body, missing from the schema`);
  }
  return out;
}
