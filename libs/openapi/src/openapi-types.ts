/** The parts of OpenAPI 3.1 this project writes; schemas are JSON Schema 2020-12 objects. */
export type JsonSchema = Record<string, unknown>;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

export interface MediaType {
  schema: JsonSchema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
  encoding?: Record<string, { contentType: string }>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface Response {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId?: string;
  summary: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, MediaType> };
  responses: Record<string, Response>;
  security?: Record<string, string[]>[];
  /** Every error code the operation can answer with, and its status (the responses repeat them). */
  'x-error-codes': Record<string, number>;
  /** Permissions the caller's role must hold. */
  'x-permissions'?: string[];
  /** The login surface whose access tokens the operation accepts. */
  'x-token-surface'?: 'admin' | 'mobile';
  [extension: `x-${string}`]: unknown;
}

export type PathItem = Partial<Record<HttpMethod, Operation>>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string; 'x-internal'?: boolean }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, PathItem>;
  components?: { securitySchemes?: Record<string, Record<string, unknown>> };
}

export const OPENAPI_VERSION = '3.1.0';
