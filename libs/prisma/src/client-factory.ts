import { PrismaPg } from '@prisma/adapter-pg';

export interface PrismaConnection {
  databaseUrl: string;
  /** The Postgres schema the service owns (contract §1). */
  schema: string;
  /** Pool size per process. */
  maxConnections?: number;
}

type PrismaClientClass<Client> = new (options: { adapter: PrismaPg }) => Client;

/** A service's generated Prisma client bound to its own schema through the pg driver adapter. */
export function createPrismaClient<Client>(Client: PrismaClientClass<Client>, connection: PrismaConnection): Client {
  const adapter = new PrismaPg(
    { connectionString: connection.databaseUrl, max: connection.maxConnections ?? 10 },
    { schema: connection.schema },
  );
  return new Client({ adapter });
}
