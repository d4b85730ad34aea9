import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import type { ExpressAdapter } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { problem, serverBusy } from '../http/openapi.decorators';
import { DOCUMENTED_CONTROLLERS } from '../rest-controllers';

/** Placeholders for the controllers' dependencies: in preview mode nothing is instantiated. */
const placeholders = [...new Set(DOCUMENTED_CONTROLLERS.flatMap((c) => (Reflect.getMetadata('design:paramtypes', c) ?? []) as unknown[]))].map((token) => ({
  provide: token as never,
  useValue: {},
}));

@Module({ controllers: DOCUMENTED_CONTROLLERS, providers: placeholders })
class RestDocsModule {}

/** The OpenAPI document of the REST API (and the health and unsubscribe routes), from the controllers' decorators. */
export async function buildOpenApi(): Promise<OpenAPIObject> {
  // Preview mode scans the controllers without instantiating anything, so the document can be
  // built without a database or the rest of the app.
  const preview = await NestFactory.create(RestDocsModule, { preview: true, logger: false, abortOnError: false });
  try {
    const config = new DocumentBuilder()
      .setTitle('Fieldpost REST API')
      .setDescription(
        'The core of the Fieldpost API for simple clients and links in mail (GraphQL at /graphql is the primary API). ' +
          'Authenticate with `Authorization: Bearer <token>`. Errors are RFC 9457 application/problem+json with a machine `code`; ' +
          'a rules violation is a 400 with `violations` (each with its `ruleId`), a stale expectedVersion a 409 with `currentVersion`, ' +
          'too many requests a 429 with Retry-After. A path asked with a method none of its operations takes is a 405 ' +
          '(`http/method_not_allowed`, components.responses.MethodNotAllowed) whose Allow header names the methods it takes.',
      )
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API token (fp_...).' })
      .build();
    return withMethodNotAllowed(withRequestRefusals(optionalBodyFieldsNullable(SwaggerModule.createDocument(preview, config))));
  } finally {
    await preview.close();
  }
}

/**
 * Marks every optional field of a request body (and of the objects nested in one) nullable: the
 * validation pipe takes null there as the field left out, as GraphQL does. Done on the document,
 * not on each decorator, so it cannot drift from the pipe, and response schemas keep what their
 * decorators say.
 */
function optionalBodyFieldsNullable(doc: OpenAPIObject): OpenAPIObject {
  const schemas = doc.components?.schemas ?? {};
  const seen = new Set<string>();
  const visit = (s: SchemaObject | ReferenceObject | undefined): void => {
    if (s === undefined) return;
    if ('$ref' in s) {
      const name = s.$ref.slice('#/components/schemas/'.length);
      if (seen.has(name)) return;
      seen.add(name);
      return visit(schemas[name]);
    }
    for (const sub of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.items ? [s.items] : [])]) visit(sub);
    const properties = s.properties ?? {};
    for (const [name, property] of Object.entries(properties)) {
      visit(property);
      if (s.required?.includes(name)) continue;
      // OpenAPI 3.0 ignores what stands beside a $ref.
      if ('$ref' in property) properties[name] = { allOf: [property], nullable: true };
      else property.nullable = true;
    }
  };
  for (const item of Object.values(doc.paths)) {
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      const body = operation?.requestBody;
      if (body && !('$ref' in body)) visit(body.content['application/json']?.schema);
    }
  }
  return doc;
}

/** What the API middleware (api.module.ts binds it to every path under /api/v1) may answer any operation there with. */
const MIDDLEWARE_REFUSALS: Record<string, string> = {
  '400': `Bad input; \`fields\` names the fields at fault, \`violations\` lists broken rules with their rule IDs. ${problem.description}`,
  '401': `The Authorization header holds no valid token: one that is sent is checked, even where none is needed. ${problem.description}`,
  '429': `Rate limit exceeded; see Retry-After. ${problem.description}`,
  // Not the middleware's: any operation that reaches the database can meet it saturated.
  '503': `${serverBusy} ${problem.description}`,
};

/** What a request body may be refused with before the operation reads it. */
const BODY_REFUSALS: Record<string, string> = {
  '413': `The body is larger than API_MAX_BODY_BYTES (\`http/payload_too_large\`). ${problem.description}`,
  '415': `The body is not JSON sent as application/json in UTF-8 (\`http/unsupported_media_type\`). ${problem.description}`,
};

/**
 * Declares the refusals every operation under /api/v1 can answer with, whatever its handler does:
 * the middleware's (input guards, token, rate limit) and, where it takes a body, the body's. Done
 * on the document, as the middleware is bound by path, so no controller can miss them; an
 * operation's own declaration of a status (with its own description) is kept.
 */
function withRequestRefusals(doc: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      if (!operation) continue;
      const refusals = { ...MIDDLEWARE_REFUSALS, ...(operation.requestBody ? BODY_REFUSALS : {}) };
      for (const [status, description] of Object.entries(refusals)) operation.responses[status] ??= { description };
      // An operation's own 503 (a sign-in mail not sent) comes beside the busy database, not instead of it.
      const unavailable = operation.responses['503'];
      if (unavailable && 'description' in unavailable && !unavailable.description.includes('`server/busy`')) unavailable.description = `${serverBusy} Or: ${unavailable.description}`;
    }
  }
  return doc;
}

/**
 * The 405 of a path asked with a method it does not serve (method-not-allowed.ts). No operation
 * answers it, since the request matches none, and OpenAPI declares responses per operation only:
 * it stands among the document's reusable responses, where the description points.
 */
function withMethodNotAllowed(doc: OpenAPIObject): OpenAPIObject {
  doc.components ??= {};
  doc.components.responses = {
    ...doc.components.responses,
    MethodNotAllowed: {
      description: `The path is served, but not with this method (\`http/method_not_allowed\`). ${problem.description}`,
      headers: { Allow: { description: 'The methods the path takes (HEAD wherever GET is), as "GET, HEAD".', schema: { type: 'string' } } },
      content: {
        'application/problem+json': {
          schema: {
            type: 'object',
            required: ['type', 'title', 'status', 'detail', 'instance', 'code'],
            properties: {
              type: { type: 'string' },
              title: { type: 'string' },
              status: { type: 'integer', enum: [405] },
              detail: { type: 'string' },
              instance: { type: 'string', description: 'The path asked.' },
              code: { type: 'string', enum: ['http/method_not_allowed'] },
            },
          },
        },
      },
    },
  };
  return doc;
}

/**
 * Serves the OpenAPI document at /docs-json and Swagger UI at /docs. Registered while the app
 * initialises (so before its not-found handler), on the app's own HTTP adapter.
 */
@Injectable()
export class ApiDocs implements OnModuleInit {
  constructor(private readonly host: HttpAdapterHost) {}

  async onModuleInit(): Promise<void> {
    const adapter = this.host.httpAdapter as ExpressAdapter;
    const document = await buildOpenApi();
    const app = {
      getHttpAdapter: () => adapter,
      useStaticAssets: (path: string, options: { prefix: string }) => adapter.useStaticAssets(path, options),
    } as unknown as INestApplication;
    SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', yamlDocumentUrl: 'docs-yaml', customSiteTitle: 'Fieldpost REST API' });
  }
}
