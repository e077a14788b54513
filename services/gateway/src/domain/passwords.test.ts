import { describe, expect, it } from "vitest";
import { hashPassword, newPasswordProblem, verifyPassword } from "./passwords";

describe("passwords", () => {
  it("hashes with argon2id, 19 MiB, 2 iterations, parallelism 1, and a random salt", async () => {
    const a = await hashPassword("correct horse battery staple");
    const b = await hashPassword("correct horse battery staple");
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("correct horse");
    expect(await verifyPassword(a, "correct horse battery staple")).toBe(true);
    expect(await verifyPassword(a, "correct horse battery stapl")).toBe(false);
    expect(await verifyPassword("not a hash", "x")).toBe(false);
  });

  it("requires at least 12 characters for a new password", () => {
    expect(newPasswordProblem("elf-tekens!")).toBe("Het wachtwoord moet minimaal 12 tekens hebben");
    expect(newPasswordProblem("twaalf-tekens")).toBeUndefined();
    expect(newPasswordProblem("x".repeat(1025))).toBe("Het wachtwoord is te lang");
  });
});
