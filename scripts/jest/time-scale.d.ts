export declare function timeScale(): number;
export declare function scaled(ms: number): number;
