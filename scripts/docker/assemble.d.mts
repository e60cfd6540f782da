export const MIGRATE: 'migrate';
export const IMAGE_TARGETS: string[];
export function shippedWorkspaces(target: string): string[];
export function entryPoint(target: string): string;
export function assemble(target: string, out: string, options?: { install?: boolean }): void;
