import { describe, expect, it } from "vitest";
import { returnPath, sessionExpired } from "./session";

describe("returning after signing in", () => {
  it("goes back to the dashboard tab the admin was on, and nowhere else", () => {
    expect(returnPath({ from: "/admin?tab=inbox&periode=30d" })).toBe("/admin?tab=inbox&periode=30d");
    expect(returnPath({ from: "/admin" })).toBe("/admin");
    expect(returnPath(null)).toBe("/admin");
    for (const from of ["https://evil.example/admin", "//evil.example", "/admin-login", "/adminx", 42]) {
      expect(returnPath({ from })).toBe("/admin");
    }
    expect(sessionExpired({ expired: true })).toBe(true);
    expect(sessionExpired(undefined)).toBe(false);
  });
});
