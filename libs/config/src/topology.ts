/** The processes of contract §1: default port and the Postgres schema each one owns. */
export const SERVICES = {
  identity: { port: 3001, schema: 'identity' },
  'reference-data': { port: 3002, schema: 'reference_data' },
  feedback: { port: 3003, schema: 'feedback' },
  media: { port: 3004, schema: 'media' },
  notifier: { port: 3005, schema: 'notifier' },
} as const;

export type ServiceName = keyof typeof SERVICES;

export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];

export const GATEWAY_PORT = 3000;

/** Environment variable naming a service's base URL for its peers, e.g. `REFERENCE_DATA_URL`. */
export function serviceUrlVariable(name: ServiceName): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_URL`;
}
