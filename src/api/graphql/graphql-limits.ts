import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { ApolloServerPlugin } from '@apollo/server';
import { MAX_INPUT_DEPTH, textProblem } from '../http/input-guards';
import {
  ASTNode,
  ASTVisitor,
  DocumentNode,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  ValidationContext,
  ValidationRule,
} from 'graphql';
import type { ApiConfig } from '../../config/config.schema';
import { hideSuggestions } from './graphql-errors';

/**
 * Names that begin with "__" are reserved for introspection (GraphQL spec, 2.1.9). Refusing
 * them in fragments, operations, variables and aliases closes tricks such as a fragment named
 * `__schema`, which limit rules that skip introspection by name may otherwise count as free.
 */
export const reservedNamesRule: ValidationRule = (context: ValidationContext): ASTVisitor => {
  const refuse = (what: string, name: string) =>
    context.reportError(new GraphQLError(`Names beginning with "__" are reserved for introspection: ${what} "${name}" is not allowed.`));
  return {
    FragmentDefinition: (node) => (node.name.value.startsWith('__') ? refuse('fragment', node.name.value) : undefined),
    OperationDefinition: (node) => (node.name?.value.startsWith('__') ? refuse('operation', node.name.value) : undefined),
    VariableDefinition: (node) => (node.variable.name.value.startsWith('__') ? refuse('variable', node.variable.name.value) : undefined),
    Field: (node) => (node.alias?.value.startsWith('__') ? refuse('alias', node.alias.value) : undefined),
  };
};

/**
 * Over HTTP a subscription would be executed as a query, with no event to resolve, and answered
 * as an internal error: it is refused up front, saying where subscriptions are served.
 */
export const noSubscriptionOverHttpRule: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition: (node) => {
    if (node.operation === 'subscription') {
      context.reportError(new GraphQLError('Subscriptions are served over WebSocket (graphql-ws) at /graphql, not over HTTP.', { nodes: node }));
    }
  },
});

/** Values written in the query itself get the checks of input-guards.ts too: text Postgres can store, no deep nesting. */
export const inputValuesRule: ValidationRule = (context: ValidationContext): ASTVisitor => {
  let depth = 0;
  const enter = (node: ASTNode) => {
    depth += 1;
    if (depth === MAX_INPUT_DEPTH + 1) context.reportError(new GraphQLError(`A value in the query is nested more than ${MAX_INPUT_DEPTH} levels deep.`, { nodes: node }));
  };
  const leave = () => {
    depth -= 1;
  };
  return {
    StringValue: (node) => {
      const bad = textProblem(node.value, 'A string in the query');
      if (bad !== null) context.reportError(new GraphQLError(bad.message, { nodes: node }));
    },
    ListValue: { enter, leave },
    ObjectValue: { enter, leave },
  };
};

export interface GraphqlProtection {
  plugins: ApolloServerPlugin[];
  validationRules: ValidationRule[];
  parseOptions: { maxTokens: number };
}

/**
 * graphql-armor's limits (depth, aliases, cost, directives, no field suggestions), the token
 * limit of graphql-js's parser, and the reserved-names rule. Every one runs while the document is parsed or validated, so a
 * refused document never reaches a resolver.
 */
export function graphqlProtection(api: ApiConfig): GraphqlProtection {
  const g = api.graphql;
  const armor = new ApolloArmor({
    maxDepth: { n: g.maxDepth, ignoreIntrospection: api.introspection },
    maxAliases: { n: g.maxAliases },
    costLimit: { maxCost: g.maxCost, ignoreIntrospection: api.introspection },
    // Tokens are limited by graphql-js's own parser (parseOptions below): armor's plugin throws
    // from parsingDidStart, which Apollo Server 5 answers with a 500.
    maxTokens: { enabled: false },
    maxDirectives: { n: g.maxDirectives },
    blockFieldSuggestion: { enabled: true },
  }).protect();
  return {
    plugins: armor.plugins as ApolloServerPlugin[],
    validationRules: [...(armor.validationRules as ValidationRule[]), reservedNamesRule, inputValuesRule],
    parseOptions: { maxTokens: g.maxTokens },
  };
}

/**
 * The same checks for operations that arrive over graphql-ws, which does not pass through
 * Apollo: parse with the token limit, then validate with the standard rules, the limits and,
 * when introspection is off, the rule that refuses it.
 */
export function parseAndValidate(schema: GraphQLSchema, source: string, api: ApiConfig, rules: readonly ValidationRule[]): { document: DocumentNode } | { errors: GraphQLError[] } {
  let document: DocumentNode;
  try {
    document = parse(source, { maxTokens: api.graphql.maxTokens });
  } catch (err) {
    return { errors: [withCode(err instanceof GraphQLError ? err : new GraphQLError(String(err)), 'GRAPHQL_PARSE_FAILED')] };
  }
  const errors = validate(schema, document, [...specifiedRules, ...rules, ...(api.introspection ? [] : [NoSchemaIntrospectionCustomRule])]);
  if (errors.length) return { errors: errors.map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED')) };
  return { document };
}

/**
 * The operation to run and its variables, checked as Apollo checks them over HTTP. graphql-ws
 * leaves both to execution, whose errors carry no code and so read as internal ones.
 */
export function prepareOperation(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | null | undefined): { ok: true } | { errors: GraphQLError[] } {
  const operation = getOperationAST(document, operationName);
  if (!operation) {
    const message = operationName ? `Unknown operation named "${operationName}".` : 'Must provide operation name if query contains multiple operations.';
    return { errors: [new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } })] };
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 50 });
  if (coerced.errors) return { errors: coerced.errors.map((e) => withCode(e, 'BAD_USER_INPUT')) };
  return { ok: true };
}

function withCode(e: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(hideSuggestions(e.message), { nodes: e.nodes ?? null, extensions: { code } });
}
