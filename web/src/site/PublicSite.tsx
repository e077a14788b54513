import { NoticeProvider } from "../components/notice";
import type { NOT_FOUND_KEY, PublicPath } from "../lib/url";
import { PAGES } from "../routes";
import { Island } from "./Island";
import { siteNotices } from "./notices";

/**
 * A public page as it is pre-rendered (entry-server.tsx): the layout with the page in <main>. In the
 * browser only its islands run (header, footer, cookie banner, notices and the page's own).
 */
export function PublicSite({ page }: { page: PublicPath | typeof NOT_FOUND_KEY }) {
  const Page = PAGES[page];
  return (
    <NoticeProvider store={siteNotices} viewport={false}>
      <div className="flex min-h-screen flex-col">
        <a
          href="#inhoud"
          className="sr-only z-50 rounded-button bg-primary-strong px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Naar de inhoud
        </a>
        <Island name="header" />
        <main id="inhoud" className="flex-1">
          <Page />
        </main>
        <Island name="footer" />
        <Island name="cookie-banner" />
      </div>
      <Island name="notices" />
    </NoticeProvider>
  );
}
