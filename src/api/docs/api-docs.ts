import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import type { ExpressAdapter } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
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
          'too many requests a 429 with Retry-After.',
      )
      .setVersion('1')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API token (fp_...).' })
      .build();
    return SwaggerModule.createDocument(preview, config);
  } finally {
    await preview.close();
  }
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
