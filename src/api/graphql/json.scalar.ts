import { GraphQLError, GraphQLScalarType, Kind, ValueNode } from 'graphql';

/**
 * Any JSON value. Orders and board data have system-specific shapes (each game system defines
 * its own), so they travel as JSON; everything else in the schema is typed.
 */
export const GraphQLJSON = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value (object, array, string, number, boolean or null). Used for orders and board data, whose shape is defined by each game system.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literal(ast, variables ?? undefined),
});

function literal(ast: ValueNode, variables: Record<string, unknown> | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literal(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
    case Kind.ENUM:
      return ast.value;
    default:
      throw new GraphQLError('Not a JSON value.');
  }
}
