import fc from 'fast-check';
import { hostileBodyText, hostileString, hostileValue, oddContentTypes, oddHeaders, PROTOTYPE_KEYS } from './hostile.js';
import type { Operation, SchemaResolver } from './openapi.js';
import { validValue } from './values.js';

/** Who sends a request: nobody, a role's real token, or a token the gateway must refuse. */
export const PRINCIPALS = ['anonymous', 'admin', 'staff', 'customer', 'garbage', 'alg-none', 'tampered', 'basic'] as const;
export type Principal = (typeof PRINCIPALS)[number];

export type Kind = 'valid' | 'boundary' | 'invalid';

export type Mutation =
  | { kind: 'none' }
  | { kind: 'boundary'; pick: number; side: 'below' | 'min' | 'max' | 'above' }
  | { kind: 'field-value'; pick: number; value: unknown }
  | { kind: 'field-missing'; pick: number }
  | { kind: 'field-extra'; key: string; value: unknown }
  | { kind: 'body-value'; value: unknown }
  | { kind: 'body-raw'; text: string }
  | { kind: 'content-type'; contentType: string }
  | { kind: 'query-value'; pick: number; value: string }
  | { kind: 'query-extra'; key: string; value: string }
  | { kind: 'path-value'; pick: number; value: string }
  | { kind: 'header'; name: string; value: string };

export type UploadContent = 'png' | 'csv' | 'pdf' | 'html' | 'svg' | 'random' | 'empty';

export interface UploadPart {
  content: UploadContent;
  random: Uint8Array;
  filename: string;
  contentType: string;
}

/** One request to make, before the pools of ids seen so far fill its path parameters. */
export interface Plan {
  operation: Operation;
  kind: Kind;
  principal: Principal;
  pathValues: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  upload: UploadPart[];
  /** Random numbers choosing among ids, keys and names seen in earlier answers. */
  poolPicks: number[];
  mutation: Mutation;
}

const uploadPart: fc.Arbitrary<UploadPart> = fc.record({
  content: fc.constantFrom<UploadContent>('png', 'png', 'csv', 'pdf', 'html', 'svg', 'random', 'empty'),
  random: fc.uint8Array({ maxLength: 2_048 }),
  filename: fc.oneof(
    fc.constantFrom('photo.png', 'photo.jpg', 'sheet.csv', 'doc.pdf', 'page.html', 'logo.svg', 'noext', '.png', '../../evil.png', 'a\\b.png', 'ok.PNG', 'x.png.html'),
    fc.fullUnicodeString({ maxLength: 40 }).map((name) => `${name}.png`),
    fc.constant(`${'n'.repeat(300)}.png`),
  ),
  contentType: fc.constantFrom('image/png', 'image/jpeg', 'text/csv', 'application/pdf', 'text/html', 'image/svg+xml', 'application/octet-stream', ''),
});

const mutationsFor = (operation: Operation): fc.Arbitrary<Mutation>[] => {
  const pick = fc.nat();
  const mutations: fc.Arbitrary<Mutation>[] = [
    oddHeaders.map((header) => ({ kind: 'header' as const, ...header })),
    fc.record({
      kind: fc.constant('query-extra' as const),
      key: fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, 'page[]', 'a.b'), fc.string({ maxLength: 10 })),
      value: hostileString,
    }),
  ];
  if (operation.queryParams.length > 0) mutations.push(fc.record({ kind: fc.constant('query-value' as const), pick, value: hostileString }));
  if (operation.pathParams.length > 0) mutations.push(fc.record({ kind: fc.constant('path-value' as const), pick, value: hostileString }));
  if (operation.body) {
    mutations.push(
      fc.record({ kind: fc.constant('body-raw' as const), text: hostileBodyText }),
      fc.record({ kind: fc.constant('content-type' as const), contentType: oddContentTypes }),
      fc.record({ kind: fc.constant('body-value' as const), value: hostileValue }),
    );
  }
  if (operation.body?.contentType.includes('json')) {
    mutations.push(
      fc.record({ kind: fc.constant('field-value' as const), pick, value: hostileValue }),
      fc.record({ kind: fc.constant('field-missing' as const), pick }),
      fc.record({ kind: fc.constant('field-extra' as const), key: fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 12 })), value: hostileValue }),
    );
  }
  return mutations;
};

/** Plans for one operation: valid requests, boundary values, and invalid ones of every kind. */
export function planArbitrary(operation: Operation, resolver: SchemaResolver): fc.Arbitrary<Plan> {
  const params = (list: Operation['pathParams']) =>
    fc.record(Object.fromEntries(list.map((parameter) => [parameter.name, validValue(parameter.schema, resolver, parameter.name)])), {
      requiredKeys: list.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    });
  const kind = fc.constantFrom<Kind>('valid', 'valid', 'boundary', 'invalid', 'invalid', 'invalid');
  return kind.chain((chosen) =>
    fc.record({
      operation: fc.constant(operation),
      kind: fc.constant(chosen),
      principal: fc.oneof(
        { weight: 6, arbitrary: fc.constant<Principal>('admin') },
        { weight: 3, arbitrary: fc.constantFrom<Principal>('staff', 'customer', 'customer') },
        { weight: 2, arbitrary: fc.constantFrom<Principal>(...PRINCIPALS) },
      ),
      pathValues: params(operation.pathParams),
      query: params(operation.queryParams),
      body: operation.body?.contentType.includes('json') ? validValue(operation.body.schema, resolver) : fc.constant(undefined),
      upload: operation.body?.contentType.startsWith('multipart/') ? fc.array(uploadPart, { minLength: 0, maxLength: 12 }) : fc.constant([]),
      poolPicks: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
      mutation:
        chosen === 'valid'
          ? fc.constant<Mutation>({ kind: 'none' })
          : chosen === 'boundary'
            ? fc.record({ kind: fc.constant('boundary' as const), pick: fc.nat(), side: fc.constantFrom('below' as const, 'min' as const, 'max' as const, 'above' as const) })
            : fc.oneof(...mutationsFor(operation)),
    }),
  );
}
