/** The path of a TypeScript entry's cached CommonJS bundle, built first when missing or stale. */
export function bundledEntry(entry: string): Promise<string>;
/** The arguments that run a TypeScript entry with node (source maps on, the cached bundle). */
export function entryArgs(entry: string): Promise<string[]>;
/** The arguments that run a service's main: its built dist when npm test built it, else the cached bundle. */
export function serviceMainArgs(service: string): Promise<string[]>;
