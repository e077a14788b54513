import { createNoticeStore } from "../components/notice";

/** The public page's one notice store: every island that tells something shows it through this. */
export const siteNotices = createNoticeStore();
