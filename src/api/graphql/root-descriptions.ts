import { GraphQLObjectType, GraphQLSchema } from 'graphql';

const DESCRIPTIONS = {
  query: 'Reads. Everything about a game is computed for the calling player\'s side (or the public view for a spectator).',
  mutation: 'Actions. Game actions take the version you last saw (expectedVersion); a stale one is refused with CONFLICT.',
  subscription: 'Live updates over graphql-ws at /graphql; authenticate with {"authorization":"Bearer <token>"} in the connection_init payload.',
} as const;

/** Code-first schemas cannot describe the root types; this adds their descriptions. */
export function describeRootTypes(schema: GraphQLSchema): GraphQLSchema {
  const config = schema.toConfig();
  const roots = new Map<GraphQLObjectType, GraphQLObjectType>();
  const describe = (t: GraphQLObjectType | null | undefined, description: string) => {
    if (!t) return t;
    const described = new GraphQLObjectType({ ...t.toConfig(), description });
    roots.set(t, described);
    return described;
  };
  const query = describe(config.query, DESCRIPTIONS.query);
  const mutation = describe(config.mutation, DESCRIPTIONS.mutation);
  const subscription = describe(config.subscription, DESCRIPTIONS.subscription);
  return new GraphQLSchema({
    ...config,
    query: query ?? null,
    mutation: mutation ?? null,
    subscription: subscription ?? null,
    types: config.types.filter((t) => !roots.has(t as GraphQLObjectType)),
  });
}
