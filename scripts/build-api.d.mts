/** Types of scripts/build-api.mjs (imported by the benches). */
export declare const apiDist: string;
export declare function buildApi(): Promise<void>;
export declare function ensureApiBuild(log?: (message: string) => void): Promise<boolean>;
export declare function newestMtime(target: string): number;
