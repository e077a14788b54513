import { describe, expect, it } from "vitest";
import {
  leaseDetailTitle,
  leaseListTitle,
  leaseStatusBadge,
  markReadBody,
  statusActions,
} from "./lease-status";

describe("lease request badge", () => {
  it('shows a red "Nieuw" for a new unread request', () => {
    expect(leaseStatusBadge({ status: "nieuw", isRead: false })).toEqual({ label: "Nieuw", tone: "red" });
  });

  it('shows a yellow "Bekeken" for bekeken and for nieuw that was already read', () => {
    expect(leaseStatusBadge({ status: "bekeken", isRead: true })).toEqual({
      label: "Bekeken",
      tone: "yellow",
    });
    expect(leaseStatusBadge({ status: "bekeken", isRead: false })).toEqual({
      label: "Bekeken",
      tone: "yellow",
    });
    expect(leaseStatusBadge({ status: "nieuw", isRead: true })).toEqual({ label: "Bekeken", tone: "yellow" });
  });

  it('shows a green "Gereageerd" and other values as plain text', () => {
    expect(leaseStatusBadge({ status: "gereageerd", isRead: true })).toEqual({
      label: "Gereageerd",
      tone: "green",
    });
    expect(leaseStatusBadge({ status: "archief" as never, isRead: true })).toEqual({
      label: "archief",
      tone: "plain",
    });
  });

  it("shows the stages after them: Offerte, Getekend, Verloren", () => {
    expect(leaseStatusBadge({ status: "offerte", isRead: true })).toEqual({ label: "Offerte", tone: "blue" });
    expect(leaseStatusBadge({ status: "getekend", isRead: true })).toEqual({
      label: "Getekend",
      tone: "green",
    });
    expect(leaseStatusBadge({ status: "verloren", isRead: true })).toEqual({
      label: "Verloren",
      tone: "gray",
    });
  });
});

describe("opening and status actions", () => {
  it("marks an opened request read with its own status, or bekeken when it has none", () => {
    expect(markReadBody({ status: "nieuw" })).toEqual({ status: "nieuw", isRead: true });
    expect(markReadBody({ status: "gereageerd" })).toEqual({ status: "gereageerd", isRead: true });
    expect(markReadBody({ status: "" as never })).toEqual({ status: "bekeken", isRead: true });
    expect(markReadBody({ status: "getekend" })).toBeNull();
  });

  it("hides the button of the status the request's badge already shows", () => {
    expect(statusActions({ status: "nieuw", isRead: false })).toEqual(["bekeken", "gereageerd"]);
    // Opened, so its badge says "Bekeken": no "Markeer als Bekeken" beside it.
    expect(statusActions({ status: "nieuw", isRead: true })).toEqual(["gereageerd"]);
    expect(statusActions({ status: "bekeken", isRead: true })).toEqual(["gereageerd"]);
    expect(statusActions({ status: "gereageerd", isRead: true })).toEqual(["bekeken"]);
  });

  it("shows no status button for a lead in a stage (going back is a confirmed action of its own)", () => {
    for (const status of ["offerte", "getekend", "verloren"] as const)
      expect(statusActions({ status, isRead: true })).toEqual([]);
  });

  it('titles a request without company "Geen bedrijfsnaam" in the list and "Privé aanvraag" in the detail', () => {
    expect(leaseListTitle({ companyName: null })).toBe("Geen bedrijfsnaam");
    expect(leaseDetailTitle({ companyName: "  " })).toBe("Privé aanvraag");
    expect(leaseDetailTitle({ companyName: "Acme BV" })).toBe("Acme BV");
  });
});
