import { lazyPage } from "../lib/lazy-page";

// The admin panel ships in its own chunks, downloaded only when an admin route is opened.
export const AdminLoginPage = lazyPage(() => import("./AdminLoginPage"));
export const AdminDashboardPage = lazyPage(() => import("./AdminDashboardPage"));
export const EmailComposePage = lazyPage(() => import("./EmailComposePage"));
