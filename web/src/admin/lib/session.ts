// Where the admin returns after signing in, carried in the router state of the login page.

/** The login page's router state: where to go afterwards, and whether a session just ended. */
export interface LoginState {
  from?: string;
  expired?: boolean;
  /** Another admin disabled or removed this account while the panel was open. */
  ended?: "disabled" | "removed";
}

/** Only a path of the admin panel itself (never another site, never "//host"). */
export function returnPath(state: unknown): string {
  const from = (state as LoginState | null)?.from;
  return typeof from === "string" && /^\/admin(?:[?#]|$)/.test(from) ? from : "/admin";
}

/** Why the session ended, when another admin disabled or removed the account. */
export function sessionEndedBy(state: unknown): "disabled" | "removed" | undefined {
  const ended = (state as LoginState | null)?.ended;
  return ended === "disabled" || ended === "removed" ? ended : undefined;
}

/** The 401's code names it: account_disabled or account_removed. */
export function endedFromError(error: unknown): LoginState["ended"] {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "account_disabled" ? "disabled" : code === "account_removed" ? "removed" : undefined;
}

export function sessionExpired(state: unknown): boolean {
  return (state as LoginState | null)?.expired === true;
}
