// How the workspace's TypeScript is compiled for tests: by @swc/jest in jest's sandbox, and by the
// module hooks jest's global setup uses (typescript-hooks.js) outside it.
export const swcOptions = {
  // Everything is here: a run from the root must not pick up the build's .swcrc, which skips test files.
  swcrc: false,
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'es6' },
};
