// A new service's place in every list that names the services. Each edit finds its anchor or
// fails loudly: a list that changed shape must be fixed here, not skipped.

function edit(tree, path, change) {
  const before = tree.read(path, 'utf8');
  if (before === null) throw new Error(`${path} is missing`);
  const after = change(before);
  if (after === before) throw new Error(`${path}: nothing changed; its shape is not what the generator knows`);
  tree.write(path, after);
}

function insertAfterLast(text, pattern, insertion, path) {
  const matches = [...text.matchAll(pattern)];
  const last = matches.at(-1);
  if (!last) throw new Error(`${path}: no line matching ${pattern}`);
  const end = text.indexOf('\n', last.index + last[0].length) + 1;
  return text.slice(0, end) + insertion + text.slice(end);
}

/** libs/config's SERVICES gains the service on the next free port; returns that port. */
function addToTopology(tree, { name, schema }) {
  const path = 'libs/config/src/topology.ts';
  const text = tree.read(path, 'utf8');
  const block = /export const SERVICES = \{\n([\s\S]*?)\n\} as const;/.exec(text);
  if (!block) throw new Error(`${path}: SERVICES not found`);
  const ports = [...block[1].matchAll(/port: (\d+)/g)].map((match) => Number(match[1]));
  if (block[1].includes(`'${name}'`) || new RegExp(`^\\s+${name}:`, 'm').test(block[1])) throw new Error(`${name} is in SERVICES already`);
  const port = Math.max(...ports) + 1;
  const key = name.includes('-') ? `'${name}'` : name;
  edit(tree, path, (before) => before.replace(block[0], `export const SERVICES = {\n${block[1]}\n  ${key}: { port: ${port}, schema: '${schema}' },\n} as const;`));
  return port;
}

/** Built from the Dockerfile with its SERVICE, migrated by the job; the gateway routes to it and waits for its health. */
function addToCompose(tree, { name, variablePrefix }, port) {
  edit(tree, 'docker-compose.yml', (text) => {
    const service =
      `  ${name}:\n    <<: *app\n    build: { <<: *build, args: { SERVICE: ${name} } }\n    image: school-commerce-${name}:local\n` +
      `    environment: { <<: *service-env }\n    depends_on: *service-depends\n`;
    const withService = text.replace(/\n {2}gateway:\n/, `\n${service}  gateway:\n`);
    const withUrl = insertAfterLast(withService, /^ {6}[A-Z_]+_URL: http:\/\/[a-z-]+:\d+$/gm, `      ${variablePrefix}_URL: http://${name}:${port}\n`, 'docker-compose.yml');
    return insertAfterLast(withUrl, /^ {6}[a-z-]+: \{ condition: service_healthy \}$/gm, `      ${name}: { condition: service_healthy }\n`, 'docker-compose.yml');
  });
}

/** Each Kustomize overlay tags (and places) the new image as it does the others. */
function addToKubernetesOverlays(tree, { name }) {
  for (const overlay of ['dev', 'prod']) {
    const path = `deploy/k8s/overlays/${overlay}/kustomization.yaml`;
    edit(tree, path, (text) => {
      const entries = [...text.matchAll(/^ {2}- \{ name: school-commerce-gateway,.*\}$/gm)];
      if (!entries[0]) throw new Error(`${path}: no images entry for school-commerce-gateway`);
      return insertAfterLast(text, /^ {2}- \{ name: school-commerce-[a-z-]+,.*\}$/gm, `${entries[0][0].replaceAll('school-commerce-gateway', `school-commerce-${name}`)}\n`, path);
    });
  }
}

function addToEnvExample(tree, { name, variablePrefix }, port) {
  edit(tree, '.env.example', (text) => {
    const withPort = insertAfterLast(text, /^#[A-Z_]+_PORT=\d+$/gm, `# Port npm start gives ${name}.\n#${variablePrefix}_PORT=${port}\n`, '.env.example');
    return insertAfterLast(
      withPort,
      /^#(?!JWKS)[A-Z_]+_URL=$/gm,
      `# Base URL of ${name}; unset: http://127.0.0.1:<${variablePrefix}_PORT>.\n#${variablePrefix}_URL=\n`,
      '.env.example',
    );
  });
}

function addToReadme(tree, { name, schema, variablePrefix }, port) {
  edit(tree, 'README.md', (text) =>
    insertAfterLast(
      text,
      /^\| `services\/[a-z-]+` \| \d+ \| schema `[a-z_]+` \| .*$/gm,
      `| \`services/${name}\` | ${port} | schema \`${schema}\` | (describe it) |\n`,
      'README.md',
    ),
  );
  edit(tree, 'docs/configuration.md', (text) =>
    text
      .replace(/(\| `IDENTITY_PORT`(?:, `[A-Z_]+_PORT`)*) \| ([\d, ]+) \|/, (_, names, ports) => `${names}, \`${variablePrefix}_PORT\` | ${ports}, ${port} |`)
      .replace(/(\| `IDENTITY_URL`(?:, `[A-Z_]+_URL`)*) \|/, (_, names) => `${names}, \`${variablePrefix}_URL\` |`),
  );
}

/** The e2e project depends on every service, so `nx` builds them all before it runs. */
function addToE2e(tree, { name }) {
  edit(tree, 'e2e/package.json', (text) => {
    const pkg = JSON.parse(text);
    pkg.devDependencies = Object.fromEntries(Object.entries({ ...pkg.devDependencies, [`@school/${name}`]: '*' }).sort(([a], [b]) => a.localeCompare(b)));
    return `${JSON.stringify(pkg, null, 2)}\n`;
  });
}

export function registerService(tree, names) {
  const port = addToTopology(tree, names);
  addToCompose(tree, names, port);
  addToKubernetesOverlays(tree, names);
  addToEnvExample(tree, names, port);
  addToReadme(tree, names, port);
  addToE2e(tree, names);
  return port;
}
