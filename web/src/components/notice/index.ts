export { NoticeProvider, useNotice } from "./NoticeProvider";
export { createNoticeStore, NOTICE_DURATION_MS } from "./notice-store";
export type { Notice, NoticeInput, NoticeStore, NoticeVariant } from "./notice-store";
