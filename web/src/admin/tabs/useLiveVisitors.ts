import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ADMIN_KEYS, fetchActiveVisitors, fetchVisitorStats } from "../api";
import { POLL_INTERVAL_MS, liveSocketUrl } from "../lib/live";
import { startLiveConnection } from "../lib/live-connection";

/**
 * Visitor stats and active visitors (SPEC §4): polled every 10 s while the WebSocket is not
 * connected; while it is, each pushed update replaces the polled data in the same cache entries.
 */
export function useLiveVisitors() {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);

  useEffect(
    () =>
      startLiveConnection({
        url: liveSocketUrl(window.location),
        onConnected: setConnected,
        onUpdate: (data) => {
          queryClient.setQueryData(ADMIN_KEYS.visitorStats, data.stats);
          queryClient.setQueryData(ADMIN_KEYS.activeVisitors, data.activeVisitors);
        },
      }),
    [queryClient],
  );

  const poll = connected ? false : POLL_INTERVAL_MS;
  const stats = useQuery({
    queryKey: ADMIN_KEYS.visitorStats,
    queryFn: fetchVisitorStats,
    refetchInterval: poll,
    staleTime: 0,
  });
  const activeVisitors = useQuery({
    queryKey: ADMIN_KEYS.activeVisitors,
    queryFn: fetchActiveVisitors,
    refetchInterval: poll,
    staleTime: 0,
  });
  return { connected, stats, activeVisitors };
}
