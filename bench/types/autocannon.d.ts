// The part of autocannon (which ships no types) the benchmarks use.
declare module 'autocannon' {
  export interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Rewrites the request before each send. */
    setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
    onResponse?: (status: number, body: string) => void;
  }

  export interface AutocannonOptions {
    url?: string;
    connections?: number;
    pipelining?: number;
    /** Seconds. */
    duration?: number;
    amount?: number;
    overallRate?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    requests?: AutocannonRequest[];
  }

  export interface Histogram {
    average: number;
    mean: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    min: number;
  }

  export interface AutocannonResult {
    latency: Histogram;
    requests: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    /** Seconds the run lasted. */
    duration: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats?: Record<string, { count: number }>;
  }

  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  function autocannon(options: AutocannonOptions, callback: (error: Error | null, result: AutocannonResult) => void): unknown;
  export default autocannon;
}
