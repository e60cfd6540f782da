/** The parts of an OpenAPI 3.0/3.1 document the fuzzer reads, and the operations it drives. */

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  allOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
};

interface MediaType {
  schema?: JsonSchema;
}

interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface OperationObject {
  operationId?: string;
  parameters?: (ParameterObject | { $ref: string })[];
  requestBody?: { required?: boolean; content?: Record<string, MediaType> } | { $ref: string };
  responses?: Record<string, { content?: Record<string, MediaType> } | { $ref: string }>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OperationObject> & { parameters?: ParameterObject[] }>;
  components?: { schemas?: Record<string, JsonSchema>; parameters?: Record<string, ParameterObject>; [key: string]: unknown };
  security?: Record<string, string[]>[];
}

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** `GET /api/lookups/provinces/{publicId}`: how reports name it. */
  id: string;
  method: string;
  /** The path template of the document. */
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  body?: { contentType: string; schema: JsonSchema; required: boolean };
  /** The document asks for a bearer token. */
  authenticated: boolean;
  /** A success answers the JSON envelope (not a file, a page, a key set or an event stream). */
  successIsEnvelope: boolean;
  /** A success is an endless event stream: read its head, then hang up. */
  streams: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Resolves local `$ref`s (`#/components/...`) of one document. */
export class SchemaResolver {
  constructor(private readonly document: OpenApiDocument) {}

  resolve<T extends object>(node: T | { $ref: string }): T {
    let current: unknown = node;
    for (let hops = 0; hops < 32 && current && typeof current === 'object' && '$ref' in current; hops += 1) {
      const ref = (current as { $ref: string }).$ref;
      if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
      current = ref
        .slice(2)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], this.document);
      if (current === undefined) throw new Error(`unresolvable $ref ${ref}`);
    }
    return current as T;
  }
}

/** Every operation of the document, in its order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const resolver = new SchemaResolver(document);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = (item.parameters ?? []).map((parameter) => resolver.resolve(parameter));
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = [...shared, ...(operation.parameters ?? []).map((parameter) => resolver.resolve<ParameterObject>(parameter))];
      const of = (where: ParameterObject['in']) =>
        parameters
          .filter((parameter) => parameter.in === where)
          .map((parameter) => ({ name: parameter.name, required: parameter.required === true, schema: parameter.schema ?? { type: 'string' } }));
      const security = operation.security ?? document.security ?? [];
      operations.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: of('path'),
        queryParams: of('query'),
        ...bodyOf(resolver, operation),
        authenticated: security.some((requirement) => Object.keys(requirement).length > 0),
        ...successOf(resolver, operation),
      });
    }
  }
  return operations;
}

function bodyOf(resolver: SchemaResolver, operation: OperationObject): Pick<Operation, 'body'> {
  if (!operation.requestBody) return {};
  const body = resolver.resolve(operation.requestBody);
  const [contentType, media] = Object.entries(body.content ?? {})[0] ?? [];
  if (!contentType) return {};
  return { body: { contentType, schema: media?.schema ?? {}, required: body.required === true } };
}

function successOf(resolver: SchemaResolver, operation: OperationObject): Pick<Operation, 'successIsEnvelope' | 'streams'> {
  const success = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
  const contents = success.flatMap(([, response]) => Object.entries(resolver.resolve(response).content ?? {}));
  const streams = contents.some(([type]) => type.startsWith('text/event-stream'));
  const successIsEnvelope = contents.some(([type, media]) => type.includes('json') && media.schema !== undefined && isEnvelope(resolver, media.schema));
  return { successIsEnvelope, streams };
}

/** A schema describing `{ message, data, errorCode }`, directly or through allOf. */
function isEnvelope(resolver: SchemaResolver, schema: JsonSchema): boolean {
  const resolved = resolver.resolve(schema);
  const properties = resolved.properties ?? {};
  if ('message' in properties && 'errorCode' in properties) return true;
  return (resolved.allOf ?? []).some((part) => isEnvelope(resolver, part));
}
