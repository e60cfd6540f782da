import fc from 'fast-check';

/** Strings a careless handler chokes on: control and bidi characters, traversal, injection, odd numbers and dates. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202Eevil',
  '\u2066x\u2069',
  'line\r\nbreak',
  '\t',
  '\uFEFF',
  '\uD800',
  '😀'.repeat(40),
  'Ω≈ç√∫˜µ≤≥÷',
  'नेपाल',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '%00',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '%_%',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '-0',
  '1e999',
  '0x1F',
  '-1',
  '0',
  '9999999999999999999999999',
  '2025-02-30',
  '2025-13-01',
  '0000-00-00',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
];

/** Keys a body must never accept silently (contract §3 counts them as undeclared fields). */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.fullUnicodeString({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.integer({ min: 256, max: 100_000 }).map((length) => 'x'.repeat(length)) },
);

/** Any JSON value of the wrong kind: hostile strings, numbers at the edges, nested containers, null. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }) },
);

/** Bodies that are not JSON the route can read. */
export const hostileBodyText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', '{', '{"a":', 'nul', '[1,2', '{"a":1}}', '\u0000', '{"a":"\u0000"}', "{'a':1}", '{"__proto__":{"admin":true}}'),
  fc.integer({ min: 100, max: 4_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 3 }).map((mebibytes) => `{"a":"${'x'.repeat(mebibytes * 1024 * 1024)}"}`),
  fc.fullUnicodeString({ maxLength: 80 }),
);

export const oddContentTypes = fc.constantFrom(
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/jsonx',
  'application/json, text/plain',
  '*/*',
);

/** Headers a client may send that no route expects (values a fetch client can carry). */
export const oddHeaders = fc.oneof(
  fc.record({ name: fc.constant('x-forwarded-for'), value: fc.constantFrom('not-an-ip', '1.2.3.4, evil', '::1', '999.999.999.999', ', , ,') }),
  fc.record({
    name: fc.constant('x-device-id'),
    value: fc.oneof(
      fc.constantFrom('', '../../x', '%00'),
      fc.string({ maxLength: 200 }).map((value) => value.replace(/[^\x20-\x7e]/g, 'x')),
    ),
  }),
  fc.record({ name: fc.constant('accept'), value: fc.constantFrom('text/html', 'application/xml', '*/*;q=0', 'image/png') }),
  fc.record({ name: fc.constant('x-http-method-override'), value: fc.constantFrom('DELETE', 'PUT', 'PATCH') }),
  fc.record({ name: fc.constant('x-request-id'), value: fc.constantFrom('', 'x'.repeat(500), '../../etc') }),
  fc.record({ name: fc.constant('range'), value: fc.constantFrom('bytes=0-0', 'bytes=-1', 'bytes=99999999-', 'bytes=5-2', 'lines=1-2', 'bytes=0-1,2-3') }),
  fc.record({ name: fc.constant('x-huge'), value: fc.constant('h'.repeat(20_000)) }),
);
