import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PROCESS_NAMES, SERVICE_NAMES, SERVICES, servicePortVariable, serviceUrlVariable } from '@school/config';
import { parse } from 'yaml';
import { ROUTE_TABLE } from '../../services/gateway/src/routes/route-table.js';

/** Every artefact that names the processes agrees with the one list in libs/config. */
const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string) => readFileSync(`${root}/${path}`, 'utf8');

interface ComposeService {
  environment?: Record<string, string>;
  ports?: string[];
  build?: { args?: Record<string, string> };
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };

describe('the service list of libs/config', () => {
  it('has a folder with an entry point for every process', () => {
    for (const name of PROCESS_NAMES) {
      expect(read(`services/${name}/src/main.ts`).length).toBeGreaterThan(0);
    }
  });

  it('is what docker-compose.yml runs, each process built with its SERVICE', () => {
    for (const name of PROCESS_NAMES) {
      expect(compose.services[name]?.build?.args?.['SERVICE']).toBe(name);
    }
  });

  it("gives compose's gateway every service's URL at its contract port", () => {
    const gateway = compose.services['gateway']?.environment ?? {};
    for (const name of SERVICE_NAMES) {
      expect(gateway[serviceUrlVariable(name)]).toBe(`http://${name}:${SERVICES[name].port}`);
    }
    expect(compose.services['identity']?.environment?.['JWKS_URL']).toBe(`http://identity:${SERVICES.identity.port}/.well-known/jwks.json`);
  });

  it('is what the route table routes to: every service is reachable through the gateway', () => {
    const routed = new Set(ROUTE_TABLE.map((route) => route.service));
    expect([...routed].sort()).toEqual([...SERVICE_NAMES].sort());
  });

  it('names a distinct port variable and default port per service', () => {
    expect(new Set(SERVICE_NAMES.map(servicePortVariable)).size).toBe(SERVICE_NAMES.length);
    expect(new Set(SERVICE_NAMES.map((name) => SERVICES[name].port)).size).toBe(SERVICE_NAMES.length);
  });
});
