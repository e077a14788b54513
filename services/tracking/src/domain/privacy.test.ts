import { describe, expect, it } from "vitest";
import { OTHER_PAGE } from "@lease/contracts";
import { anonymousVisitorId } from "./anonymous-id";
import { budgetBlock, ipPrefix } from "./ip-prefix";
import { MAX_QUERY_LENGTH, trackedPage } from "./pages";

describe("what staff see of an address", () => {
  it("shows the IPv4 /24 or IPv6 /48 block, written as a block, never the address", () => {
    expect(ipPrefix("145.53.1.77")).toBe("145.53.1.0/24");
    expect(ipPrefix("::ffff:145.53.1.77")).toBe("145.53.1.0/24");
    expect(ipPrefix("2a02:a440:1234:5678:9abc:def0:1:2")).toBe("2a02:a440:1234::/48");
    expect(ipPrefix("garbage")).toBe("");
  });

  it("counts the ingest budget per IPv4 /24 and IPv6 /64", () => {
    expect(budgetBlock("145.53.1.77")).toBe("145.53.1.0/24");
    expect(budgetBlock("145.53.1.200")).toBe(budgetBlock("::ffff:145.53.1.3"));
    expect(budgetBlock("2a02:a440:1234:5678:9abc:def0:1:2")).toBe("2a02:a440:1234:5678::/64");
    expect(budgetBlock("2a02:a440:1234:5678::99")).toBe("2a02:a440:1234:5678::/64");
    expect(budgetBlock("")).toBe("unknown");
  });
});

describe("the pages tracking records", () => {
  it("records the site's pages by name and any other path as the one other page", () => {
    expect(trackedPage("/over-ons")).toEqual({ path: "/over-ons", withQuery: "/over-ons" });
    expect(trackedPage("/over-ons/index.html#team")).toEqual({ path: "/over-ons", withQuery: "/over-ons" });
    expect(trackedPage("/admin-login")).toEqual({ path: "/admin-login", withQuery: "/admin-login" });
    for (const madeUp of ["/wp-login.php", "/over-ons/x", "/Over-Ons", "/(overig)", "(overig)", "/admin/x"])
      expect(trackedPage(madeUp), madeUp).toEqual({ path: OTHER_PAGE, withQuery: OTHER_PAGE });
    expect(trackedPage(`/attacker-${"x".repeat(400)}?utm_source=y`).withQuery).toBe(OTHER_PAGE);
  });

  it("keeps a known page's query string for attribution, bounded at whole parameters", () => {
    expect(trackedPage("/?utm_source=google&utm_medium=cpc#top")).toEqual({
      path: "/",
      withQuery: "/?utm_source=google&utm_medium=cpc",
    });
    const long = `utm_source=google&utm_campaign=${"c".repeat(200)}&gclid=${"g".repeat(100)}`;
    const kept = trackedPage(`/financiele-lease?${long}`).withQuery;
    expect(kept).toBe(`/financiele-lease?utm_source=google&utm_campaign=${"c".repeat(200)}`);
    expect(kept.length - "/financiele-lease?".length).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    expect(trackedPage(`/?q=${"x".repeat(400)}`).withQuery).toBe("/");
  });
});

describe("the anonymous visitor id", () => {
  const ua = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0";
  it("is the same for one address and browser within a day, and unrelated under another day's salt", () => {
    const id = anonymousVisitorId("salt-of-monday", "145.53.1.77", ua);
    expect(id).toMatch(/^anon-[0-9a-f]{32}$/);
    expect(anonymousVisitorId("salt-of-monday", "::ffff:145.53.1.77", ua)).toBe(id);
    expect(anonymousVisitorId("salt-of-monday", "145.53.1.78", ua)).not.toBe(id);
    expect(anonymousVisitorId("salt-of-monday", "145.53.1.77", `${ua} Edg/131`)).not.toBe(id);
    expect(anonymousVisitorId("salt-of-tuesday", "145.53.1.77", ua)).not.toBe(id);
    // Only the first 512 characters of a user agent count, as ingest reads them.
    const long = "x".repeat(512);
    expect(anonymousVisitorId("s", "1.2.3.4", `${long}tail`)).toBe(anonymousVisitorId("s", "1.2.3.4", long));
    expect(anonymousVisitorId("s", "1.2.3.4", undefined)).toBe(anonymousVisitorId("s", "1.2.3.4", ""));
  });
});
