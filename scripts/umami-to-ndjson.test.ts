import { describe, expect, it } from "vitest";
import { csvRecords, umamiToNdjson } from "./umami-to-ndjson.mjs";

async function convert(csv: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const line of umamiToNdjson(csvRecords(csv))) out.push(JSON.parse(line));
  return out;
}

describe("Umami website_event CSV to tracking:import lines", () => {
  it("keeps page views, with query, referrer and UTC time, and skips custom events", async () => {
    const csv = [
      "event_id,website_id,session_id,created_at,url_path,url_query,referrer_domain,page_title,event_type,event_name",
      'e1,w,s1,2025-03-01 10:15:00.123,/financiele-lease,utm_source=google,www.google.com,"Lease, zakelijk",1,',
      "e2,w,s1,2025-03-01 10:16:00+00,/,,,Home,2,signup",
      'e3,w,s2,2025-03-02T08:00:00Z,/over-ons,,,"Over ""ons""",1,',
      "",
    ].join("\n");
    expect(await convert(csv)).toEqual([
      {
        id: "e1",
        at: "2025-03-01T10:15:00.123Z",
        session: "s1",
        page: "/financiele-lease?utm_source=google",
        referrer: "https://www.google.com/",
      },
      { id: "e3", at: "2025-03-02T08:00:00Z", session: "s2", page: "/over-ons" },
    ]);
  });

  it("reads a quoted field across lines, a byte-order mark and Windows line ends", async () => {
    const csv =
      "\uFEFFevent_id,session_id,created_at,url_path,page_title,event_type\r\n" +
      'e1,s1,2025-03-01 10:15:00,/,"Twee\r\nregels",1\r\n';
    expect(await convert(csv)).toEqual([{ id: "e1", at: "2025-03-01T10:15:00Z", session: "s1", page: "/" }]);
  });

  it("names the line of a malformed file", async () => {
    await expect(convert('event_id,session_id,created_at,url_path\ne1,s1,"2025,/\n')).rejects.toThrow(
      /line/i,
    );
  });

  it("refuses a file that is not a website_event export", async () => {
    await expect(convert("id,name\n1,x")).rejects.toThrow("column event_id is missing");
  });
});
