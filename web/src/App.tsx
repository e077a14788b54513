import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { Suspense, useEffect } from "react";
import { Route, Routes, useLocation } from "react-router-dom";
import { AdminDashboardPage, AdminLoginPage, EmailComposePage } from "./admin";
import { NoticeProvider } from "./components/notice";
import { SiteEffects } from "./components/SiteEffects";

/** Any other path belongs to the public site, which is no part of this app: the browser loads it. */
function LeaveApp() {
  const { pathname, search, hash } = useLocation();
  useEffect(() => window.location.replace(`${pathname}${search}${hash}`), [pathname, search, hash]);
  return null;
}

/** The admin app: sign-in, dashboard and the compose window. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <NoticeProvider>
        <SiteEffects />
        <Suspense fallback={null}>
          <Routes>
            <Route path="/admin-login" element={<AdminLoginPage />} />
            <Route path="/admin" element={<AdminDashboardPage />} />
            <Route path="/email-compose" element={<EmailComposePage />} />
            <Route path="*" element={<LeaveApp />} />
          </Routes>
        </Suspense>
      </NoticeProvider>
    </QueryClientProvider>
  );
}
