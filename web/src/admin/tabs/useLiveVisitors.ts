import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { ACTIVE_VISITORS_PAGE } from "@lease/contracts";
import { ADMIN_KEYS, fetchActiveVisitors, fetchVisitorStats, type ActiveVisitorsPage } from "../api";
import { POLL_INTERVAL_MS } from "../lib/live";
import { useAdminSocket } from "../lib/use-admin-socket";

/**
 * Visitor stats and one page (from 0) of the active visitors: polled every 10 s while
 * the WebSocket is not connected; while it is, each pushed update replaces the polled stats and
 * the first page (the push carries the first page only). Later pages are always read over HTTP,
 * every 10 s.
 */
export function useLiveVisitors(page: number) {
  const queryClient = useQueryClient();
  const connected = useAdminSocket({
    onUpdate: (data) => {
      queryClient.setQueryData(ADMIN_KEYS.visitorStats, data.stats);
      queryClient.setQueryData<ActiveVisitorsPage>([...ADMIN_KEYS.activeVisitors, 0], {
        visitors: data.activeVisitors,
        total: data.stats.currentActive,
      });
    },
  });

  const poll = connected ? false : POLL_INTERVAL_MS;
  const stats = useQuery({
    queryKey: ADMIN_KEYS.visitorStats,
    queryFn: fetchVisitorStats,
    refetchInterval: poll,
    staleTime: 0,
  });
  const activeVisitors = useQuery({
    queryKey: [...ADMIN_KEYS.activeVisitors, page],
    queryFn: () => fetchActiveVisitors(page * ACTIVE_VISITORS_PAGE, ACTIVE_VISITORS_PAGE),
    refetchInterval: page === 0 ? poll : POLL_INTERVAL_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
  return { connected, stats, activeVisitors };
}
