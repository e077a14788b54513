import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import { App } from "./App";
import { AdminDashboardPage, AdminLoginPage, EmailComposePage } from "./admin";
import { createQueryClient } from "./api/query-client";
import { PAGES } from "./routes";
import { watchEarlyInput } from "./lib/early-input";
import { normalizePath, prerenderKeyFor, type PublicPath } from "./lib/url";
import "./styles.css";

const ADMIN_PAGES: Record<string, { preload(): Promise<void> }> = {
  "/admin-login": AdminLoginPage,
  "/admin": AdminDashboardPage,
  "/email-compose": EmailComposePage,
};

async function start(): Promise<void> {
  const container = document.getElementById("root")!;
  const pathname = normalizePath(window.location.pathname);
  const key = prerenderKeyFor(pathname);
  // Before anything else: fields typed into (or autofilled) while the scripts loaded keep their text.
  if (key !== null) watchEarlyInput(container);
  // Load the current page's chunk first, so the first render matches the pre-rendered HTML exactly.
  await (key === null ? ADMIN_PAGES[pathname]! : PAGES[key as PublicPath]).preload();

  const app = (
    <StrictMode>
      <BrowserRouter>
        <App queryClient={createQueryClient()} />
      </BrowserRouter>
    </StrictMode>
  );
  // Hydrate only a document pre-rendered for this very path; client-only routes (the admin) arrive as
  // the bare shell app.html (or, without it, as another page's document) and are rendered from scratch.
  if (key !== null && container.dataset.prerendered === key) {
    hydrateRoot(container, app);
  } else {
    container.replaceChildren();
    createRoot(container).render(app);
  }
}

void start();
