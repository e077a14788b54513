export const SERVICES: string[];
export function buildServices(only?: string[]): Promise<void>;
export function buildWeb(): boolean;
export function buildServicesUnlessBuilt(): Promise<void>;
/** Packages a service's bundle leaves to node_modules. */
export const EXTERNAL_PACKAGES: string[];
/** Bundles a service's entry points ({ name: source file }) into `outdir`, as the build does. */
export function bundleService(entryPoints: Record<string, string>, outdir: string): Promise<void>;
