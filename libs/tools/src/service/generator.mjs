// `npx nx g @school/tools:service <name>`: a new NestJS service with everything it needs, and its
// place in every list that names the services (topology, compose, Dockerfile, .env.example, README, docs/configuration.md).
import { execSync } from 'node:child_process';
import { serviceFiles } from './files.mjs';
import { registerService } from './register.mjs';

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** The names a service goes by: folder and topology key, Postgres schema, variable prefix, camelCase. */
export function serviceNames(name) {
  if (!NAME.test(name)) throw new Error(`"${name}" is not a kebab-case service name (e.g. billing, school-fees)`);
  return {
    name,
    schema: name.replace(/-/g, '_'),
    variablePrefix: name.toUpperCase().replace(/-/g, '_'),
    camel: name.replace(/-(\w)/g, (_, letter) => letter.toUpperCase()),
  };
}

export default async function serviceGenerator(tree, options) {
  const names = serviceNames(options.name);
  if (tree.exists(`services/${names.name}`)) throw new Error(`services/${names.name} exists already`);
  const port = registerService(tree, names);
  for (const [path, content] of Object.entries(serviceFiles(names))) tree.write(`services/${names.name}/${path}`, content);
  return () => {
    if (!options.skipInstall) execSync('npm install --ignore-scripts', { stdio: 'inherit' });
    console.log(
      `\n@school/${names.name} listens on ${port} (${names.variablePrefix}_PORT) and owns schema ${names.schema}.\n` +
        'Next: its models in prisma/schema.prisma and a migration, its routes in a manifest of libs/contracts/src/routes/ (SERVICE_ROUTES),\n' +
        'its rules in src/<context>/, then `npm run build && node deploy/k8s/generate.mjs` for its Kubernetes manifests\n' +
        '(see "Adding a service" in docs/development.md).',
    );
  };
}
