import * as contracts from "@lease/contracts";
import { describe, expect, it } from "vitest";
import { CALCULATOR_DEFAULTS, calculateLease } from "./calculator";
import * as local from "./constants";
import { SESSION_STORAGE_KEY } from "./tracking";

describe("constants mirrored from @lease/contracts", () => {
  it("match the contracts exactly", () => {
    expect(local.DEFAULT_COMPANY_NAME).toBe(contracts.DEFAULT_COMPANY_NAME);
    expect(local.INSURANCE_MONTHLY).toBe(contracts.INSURANCE_MONTHLY);
    expect(local.MAINTENANCE_MONTHLY).toBe(contracts.MAINTENANCE_MONTHLY);
    expect(local.LEASE_TERMS).toEqual(contracts.LEASE_TERMS);
    expect(local.CALCULATOR_TERMS).toEqual(contracts.CALCULATOR_TERMS);
    expect(local.THEME_DEFAULTS).toEqual(contracts.THEME_DEFAULTS);
    expect(local.VISITOR_SESSION_STORAGE_KEY).toBe(contracts.VISITOR_SESSION_STORAGE_KEY);
    expect(SESSION_STORAGE_KEY).toBe(contracts.VISITOR_SESSION_STORAGE_KEY);
    expect(local.SESSION_ID_REGEX.source).toBe(contracts.SESSION_ID_REGEX.source);
    expect(local.CAR_URL_MESSAGE).toBe(contracts.CAR_URL_MESSAGE);
    expect(local.PHONE_MESSAGE).toBe(contracts.PHONE_MESSAGE);
    expect(local.EMAIL_MESSAGE).toBe(contracts.EMAIL_MESSAGE);
    expect(local.REQUIRED_FIELDS_MESSAGE).toBe(contracts.REQUIRED_FIELDS_MESSAGE);
    expect(local.MESSAGE_MIN_MESSAGE).toBe(contracts.MESSAGE_MIN_MESSAGE);
    expect(local.CLICK_ID_PARAMS).toEqual(contracts.CLICK_ID_PARAMS);
    expect(local.GOOGLE_CLICK_ID_REGEX.source).toBe(contracts.GOOGLE_CLICK_ID_REGEX.source);
    expect(local.CLICK_ID_REGEX.source).toBe(contracts.CLICK_ID_REGEX.source);
    expect(local.FBP_REGEX.source).toBe(contracts.FBP_REGEX.source);
    // The Google ids are the ones the contract checks with the Google pattern.
    for (const name of local.CLICK_ID_PARAMS)
      expect(contracts.FormClickIds.safeParse({ [name]: "_x" }).success, name).toBe(true);
    for (const name of local.GOOGLE_CLICK_ID_PARAMS)
      expect(contracts.FormClickIds.safeParse({ [name]: "a.b" }).success, name).toBe(false);
  });

  it("calculator defaults equal the contract's and are a valid LeaseCalculatorInput", () => {
    expect(CALCULATOR_DEFAULTS).toEqual(contracts.CALCULATOR_DEFAULTS);
    const parsed = contracts.LeaseCalculatorInput.parse({});
    expect(contracts.LeaseCalculatorResult.parse(calculateLease(parsed))).toEqual(
      calculateLease(CALCULATOR_DEFAULTS),
    );
  });
});
