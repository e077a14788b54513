import { describe, expect, it } from "vitest";
import { filterChips, filterFromParams, filterQuery, isFiltered, withFilter } from "./analytics-filter";

const labels = {
  channel: (v: string) => (v === "Paid Search" ? "Betaald zoeken" : v),
  page: (v: string) => v,
};

describe("the Analytics filter in the URL", () => {
  it("merges into the tab's and the period's parameters and reads back the same", () => {
    const params = new URLSearchParams("tab=analytics&periode=30d");
    const next = withFilter(params, {
      channel: "Paid Search",
      campaign: "najaar",
      campaignSource: "google",
      campaignMedium: "cpc",
    });
    expect(next.toString()).toBe(
      "tab=analytics&periode=30d&kanaal=betaald-zoeken&campagne=najaar&campagnebron=google&campagnemedium=cpc",
    );
    expect(filterFromParams(next)).toEqual({
      channel: "Paid Search",
      campaign: "najaar",
      campaignSource: "google",
      campaignMedium: "cpc",
    });
    expect(filterQuery(filterFromParams(next))).toEqual({
      channel: "Paid Search",
      campaign: "najaar",
      campaignSource: "google",
      campaignMedium: "cpc",
    });
    // Removing the filter leaves the tab and the period.
    expect(withFilter(next, {}).toString()).toBe("tab=analytics&periode=30d");
  });

  it("reads a link saved with the API's channel name (kanaal=Paid+Search) as well", () => {
    expect(filterFromParams(new URLSearchParams("kanaal=Paid+Search"))).toEqual({ channel: "Paid Search" });
    expect(filterFromParams(new URLSearchParams("kanaal=organisch-zoeken"))).toEqual({
      channel: "Organic Search",
    });
    expect(withFilter(new URLSearchParams("kanaal=Paid+Search"), { channel: "Email" }).toString()).toBe(
      "kanaal=e-mail",
    );
  });

  it("leaves out what the API would refuse", () => {
    const params = new URLSearchParams(
      `kanaal=Google&campagnebron=google&landingspagina=geen-pad&campagne=${"x".repeat(101)}`,
    );
    expect(filterFromParams(params)).toEqual({});
    expect(isFiltered(filterFromParams(params))).toBe(false);
    expect(filterFromParams(new URLSearchParams("landingspagina=%2F%3Fa%3D1"))).toEqual({});
    expect(filterFromParams(new URLSearchParams("landingspagina=%2Fcontact"))).toEqual({ page: "/contact" });
  });

  it("shows each part as a Dutch chip that removes only that part", () => {
    const filter = {
      channel: "Paid Search" as const,
      campaign: "najaar",
      campaignSource: "google",
      campaignMedium: "cpc",
      page: "/financiele-lease",
    };
    const chips = filterChips(filter, labels);
    expect(chips.map((c) => c.label)).toEqual([
      "kanaal Betaald zoeken",
      "campagne google / cpc / najaar",
      "landingspagina /financiele-lease",
    ]);
    expect(filterQuery(chips[1]!.without)).toEqual({ channel: "Paid Search", page: "/financiele-lease" });
    expect(filterQuery(chips[0]!.without)).toMatchObject({ campaign: "najaar", page: "/financiele-lease" });
  });
});
