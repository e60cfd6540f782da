export const CONFIG_MAP: string;
export const SECRET: string;
export const SECRET_VARIABLES: Record<string, boolean>;
/** Path of each generated file and the content the generator writes there. */
export function generated(): Promise<Record<string, string>>;
