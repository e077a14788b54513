import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { App } from "./App";
import { AdminDashboardPage, AdminLoginPage, EmailComposePage } from "./admin";
import { createQueryClient } from "./api/query-client";
import { normalizePath } from "./lib/url";
import "./styles.css";

// The admin app (app.html, which the gateway answers the admin routes with): rendered in the
// browser, with react-router and react-query. The public pages have an entry of their own
// (entry-site.tsx) and load none of this.

const ADMIN_PAGES: Record<string, { preload(): Promise<void> }> = {
  "/admin-login": AdminLoginPage,
  "/admin": AdminDashboardPage,
  "/email-compose": EmailComposePage,
};

async function start(): Promise<void> {
  const container = document.getElementById("root")!;
  // Load the current page's chunk first, so the first render does not flash the fallback.
  await ADMIN_PAGES[normalizePath(window.location.pathname)]?.preload();
  container.replaceChildren();
  createRoot(container).render(
    <StrictMode>
      <BrowserRouter>
        <App queryClient={createQueryClient()} />
      </BrowserRouter>
    </StrictMode>,
  );
}

void start();
