import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { GraphQLNamedType, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isScalarType, isUnionType, lexicographicSortSchema, printSchema } from 'graphql';
import { apiApp, ApiApp } from './support/api-app';

const FILE = join(__dirname, '..', '..', 'schema.gql');
const HEADER = '# The GraphQL schema, generated from the code. Do not edit: regenerate with\n#   UPDATE_SCHEMA=1 npm test -- test/api/schema.e2e-spec.ts\n\n';

describe('schema.gql', () => {
  let a: ApiApp;
  let printed: string;
  beforeAll(async () => {
    a = await apiApp();
    printed = HEADER + printSchema(lexicographicSortSchema(a.running.app.get(GraphQLSchemaHost).schema)) + '\n';
  });
  afterAll(async () => {
    await a.close();
  });

  it('is exactly the schema the code builds (CI fails when it drifts)', () => {
    if (process.env.UPDATE_SCHEMA === '1') writeFileSync(FILE, printed);
    const committed = readFileSync(FILE, 'utf8');
    if (committed !== printed) {
      throw new Error('schema.gql differs from the schema the code builds. Regenerate it with: UPDATE_SCHEMA=1 npm test -- test/api/schema.e2e-spec.ts');
    }
  });

  it('describes every type, field, argument and enum value', () => {
    const schema = a.running.app.get(GraphQLSchemaHost).schema;
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap()) as GraphQLNamedType[]) {
      if (type.name.startsWith('__') || (isScalarType(type) && ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name))) continue;
      if (!type.description) missing.push(type.name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) missing.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : []) if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
      if (isEnumType(type)) for (const v of type.getValues()) if (!v.description) missing.push(`${type.name}.${v.name}`);
      if (isUnionType(type) && !type.description) missing.push(type.name);
    }
    expect(missing).toEqual([]);
  });
});
