// Where the admin returns after signing in, carried in the router state of the login page.

/** The login page's router state: where to go afterwards, and whether a session just ended. */
export interface LoginState {
  from?: string;
  expired?: boolean;
  /** Another admin disabled or removed this account, or reset its second factor, while the panel was open. */
  ended?: SessionEnd;
}

/** Only a path of the admin panel itself (never another site, never "//host"). */
export function returnPath(state: unknown): string {
  const from = (state as LoginState | null)?.from;
  return typeof from === "string" && /^\/admin(?:[?#]|$)/.test(from) ? from : "/admin";
}

const SESSION_ENDS = ["disabled", "removed", "totp_reset"] as const;
export type SessionEnd = (typeof SESSION_ENDS)[number];
const isSessionEnd = (value: unknown): value is SessionEnd => SESSION_ENDS.includes(value as SessionEnd);

/** Why the session ended, when another admin disabled or removed the account or reset its 2FA. */
export function sessionEndedBy(state: unknown): SessionEnd | undefined {
  const ended = (state as LoginState | null)?.ended;
  return isSessionEnd(ended) ? ended : undefined;
}

/** The 401's code names it: account_disabled, account_removed or account_totp_reset. */
export function endedFromError(error: unknown): LoginState["ended"] {
  const code = (error as { code?: unknown } | null)?.code;
  const reason = typeof code === "string" ? code.replace(/^account_/, "") : undefined;
  return isSessionEnd(reason) ? reason : undefined;
}

export function sessionExpired(state: unknown): boolean {
  return (state as LoginState | null)?.expired === true;
}
