export interface DocumentedVariable {
  name: string;
  /** The default written after `=`; empty when the variable is unset by default. */
  value: string;
  comment: string;
}

export function documentedVariables(root: string): DocumentedVariable[];
export function printHelp(root: string): void;
