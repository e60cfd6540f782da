export const CHART: string;
export const SECRET: string;
export const SECRET_VARIABLES: Record<string, boolean>;
/** A Kustomize file as `helm template` renders it from the chart on disk. */
export function rendered(path: string): string;
/** Path of each generated file and the content the generator writes there. */
export function generated(): Promise<Record<string, string>>;
