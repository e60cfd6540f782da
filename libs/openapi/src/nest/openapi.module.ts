import { Controller, type DynamicModule, Get, Module } from '@nestjs/common';
import type { OpenApiDocument } from '../openapi-types.js';

/** Serves the service's part of the API at `GET /openapi.json` on its own port (internal; the gateway merges the parts). */
@Module({})
export class OpenApiModule {
  static forRoot(document: OpenApiDocument): DynamicModule {
    @Controller()
    class OpenApiController {
      @Get('openapi.json')
      document(): OpenApiDocument {
        return document;
      }
    }
    return { module: OpenApiModule, controllers: [OpenApiController] };
  }
}
