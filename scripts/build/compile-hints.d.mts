export declare const COMPILE_HINT: string;
export declare function startupChunks(distDir: string): Promise<string[]>;
export declare function addCompileHints(distDir: string): Promise<string[]>;
export declare function removeCompileHints(distDir: string): Promise<string[]>;
