import { QueryClient } from "@tanstack/react-query";

/** Defaults: no retries, no refetch on focus, data fresh until its own staleTime says otherwise. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: Infinity },
      mutations: { retry: false },
    },
  });
}
