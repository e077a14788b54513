import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { Outlet, Route, Routes } from "react-router-dom";
import { AdminDashboardPage, AdminLoginPage, EmailComposePage } from "./admin";
import { CookieBanner } from "./components/CookieBanner";
import { Footer } from "./components/Footer";
import { Header } from "./components/Header";
import { NoticeProvider } from "./components/notice";
import { SiteEffects } from "./components/SiteEffects";
import { PAGES } from "./routes";
import { NOT_FOUND_KEY, PUBLIC_PATHS } from "./lib/url";

function PublicLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#inhoud"
        className="sr-only z-50 rounded-button bg-primary-strong px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Naar de inhoud
      </a>
      <Header />
      <main id="inhoud" className="flex-1">
        <Suspense fallback={<div className="min-h-[60vh]" aria-busy="true" />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <CookieBanner />
    </div>
  );
}

export function App({ queryClient }: { queryClient: QueryClient }) {
  const NotFound = PAGES[NOT_FOUND_KEY];
  return (
    <QueryClientProvider client={queryClient}>
      <NoticeProvider>
        <SiteEffects />
        <Routes>
          <Route element={<PublicLayout />}>
            {PUBLIC_PATHS.map((path) => {
              const Page = PAGES[path];
              return <Route key={path} path={path} element={<Page />} />;
            })}
            <Route path="*" element={<NotFound />} />
          </Route>
          <Route
            element={
              <Suspense fallback={null}>
                <Outlet />
              </Suspense>
            }
          >
            <Route path="/admin-login" element={<AdminLoginPage />} />
            <Route path="/admin" element={<AdminDashboardPage />} />
            <Route path="/email-compose" element={<EmailComposePage />} />
          </Route>
        </Routes>
      </NoticeProvider>
    </QueryClientProvider>
  );
}
