// Island: the page's notice (toast), which every other island's notify() shows.
import { NoticeViewport } from "../components/notice/NoticeProvider";
import { siteNotices } from "../site/notices";

export default function Notices() {
  return <NoticeViewport store={siteNotices} />;
}
