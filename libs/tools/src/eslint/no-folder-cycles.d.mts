import type { ESLint, Rule } from 'eslint';

export interface FolderCycle {
  folder: string;
  from: string;
  to: string;
  back: string[];
  imports: string[];
}
export declare function notRanked(file: string): boolean;
export declare function folderCycles(root: string): FolderCycle[];
export declare const noFolderCycles: Rule.RuleModule;
export declare const plugin: ESLint.Plugin;
