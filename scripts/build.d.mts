export const SERVICES: string[];
export function buildServices(only?: string[]): Promise<void>;
export function buildWeb(): boolean;
export function buildServicesUnlessBuilt(): Promise<void>;
