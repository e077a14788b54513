import argon2 from "argon2";
import { NEW_PASSWORD_MIN_LENGTH } from "@lease/contracts";

// OWASP's argon2id figures: 19 MiB memory, 2 iterations, parallelism 1.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** A hash of a random password, verified against when the username does not exist (same timing). */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(`dummy-${Math.random()}-${Date.now()}`);
  return dummyHash;
}

export function newPasswordProblem(password: string): string | undefined {
  if (password.length < NEW_PASSWORD_MIN_LENGTH)
    return `Het wachtwoord moet minimaal ${NEW_PASSWORD_MIN_LENGTH} tekens hebben`;
  if (password.length > 1024) return "Het wachtwoord is te lang";
  return undefined;
}
