import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { isJsonBody, type RouteSpec } from '@school/contracts';
import { validate } from '@school/http';
import { ROUTE_SPEC } from './route.decorator.js';

interface RequestLike {
  body?: unknown;
  query?: unknown;
}

function specOf(context: ExecutionContext): RouteSpec {
  const spec = Reflect.getMetadata(ROUTE_SPEC, context.getHandler()) as RouteSpec | undefined;
  if (!spec) throw new Error('@RouteBody() and @RouteQuery() need the handler’s @Route()');
  return spec;
}

/** The JSON body validated by the route's manifest entry (400 VALIDATION_FAILED, or its `validationStatus`); type it `BodyOf<typeof SPEC>`. */
export const RouteBody = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  const spec = specOf(context);
  if (!isJsonBody(spec.body)) throw new Error(`${spec.method} ${spec.path} declares no JSON body`);
  const status = spec.validationStatus === undefined ? {} : { status: spec.validationStatus };
  return validate(spec.body.json, context.switchToHttp().getRequest<RequestLike>().body ?? {}, status);
});

/** The query validated by the route's manifest entry; type it `QueryOf<typeof SPEC>`. */
export const RouteQuery = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  const spec = specOf(context);
  if (!spec.query) throw new Error(`${spec.method} ${spec.path} declares no query`);
  const status = spec.validationStatus === undefined ? {} : { status: spec.validationStatus };
  return validate(spec.query, context.switchToHttp().getRequest<RequestLike>().query ?? {}, status);
});
