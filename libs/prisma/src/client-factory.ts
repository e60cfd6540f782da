import { PrismaPg } from '@prisma/adapter-pg';

export interface PrismaConnection {
  databaseUrl: string;
  /** The Postgres schema the service owns (contract §1). */
  schema: string;
  /** Pool size per process. */
  maxConnections?: number;
}

/**
 * A generated `PrismaClient` class. Each service generates its own, with its own option types, so
 * any constructor is accepted here; every generated client takes `{ adapter }`.
 */
type PrismaClientClass = abstract new (...args: never[]) => unknown;
type AdapterClientClass<Client> = new (options: { adapter: PrismaPg }) => Client;

/** A service's generated Prisma client bound to its own schema through the pg driver adapter. */
export function createPrismaClient<Class extends PrismaClientClass>(Client: Class, connection: PrismaConnection): InstanceType<Class> {
  const adapter = new PrismaPg({ connectionString: connection.databaseUrl, max: connection.maxConnections ?? 10 }, { schema: connection.schema });
  return new (Client as unknown as AdapterClientClass<InstanceType<Class>>)({ adapter });
}
