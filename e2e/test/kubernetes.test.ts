import { spawnSync } from 'node:child_process';
import { generated } from '../../deploy/k8s/generate.mjs';
import { readRepoFile, root } from './support/deployment.js';
import { itDeploysTheSystem, parseObjects, validate } from './support/manifests.js';

/** Every Kustomize overlay rendered by `kubectl kustomize` (its base rendered from the Helm chart), checked as the chart is. */
const OVERLAYS = ['dev', 'prod'] as const;

function render(overlay: string) {
  const result = spawnSync('kubectl', ['kustomize', `${root}/deploy/k8s/overlays/${overlay}`], { encoding: 'utf8' });
  if (result.error) throw new Error(`kubectl kustomize ${overlay}: ${result.error.message} (kubectl, with its built-in kustomize, renders the overlays)`);
  if (result.status !== 0) throw new Error(`kubectl kustomize ${overlay}: ${result.stderr}`);
  return parseObjects(result.stdout);
}

describe.each(OVERLAYS)('deploy/k8s/overlays/%s', (overlay) => {
  itDeploysTheSystem({ objects: render(overlay), production: overlay === 'prod' });
});

describe('deploy/k8s, rendered from the Helm chart', () => {
  it('is what deploy/k8s/generate.mjs writes: the chart process list from libs/config, the base and the dev infrastructure from the chart (regenerate after changing either)', async () => {
    for (const [path, content] of Object.entries(await generated())) expect({ path, content: readRepoFile(path.slice(root.length)) }).toEqual({ path, content });
  });

  it('is checked by schemas that refuse a broken object', async () => {
    await expect(validate({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { replicas: 'two' } })).rejects.toThrow();
  });
});
