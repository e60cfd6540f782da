export declare function timeScale(): number;
export declare function expectOwnLoad(processes: number): number;
export declare function scaled(ms: number): number;
