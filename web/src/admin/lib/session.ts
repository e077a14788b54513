// Where the admin returns after signing in, carried in the router state of the login page.

/** The login page's router state: where to go afterwards, and whether a session just ended. */
export interface LoginState {
  from?: string;
  expired?: boolean;
}

/** Only a path of the admin panel itself (never another site, never "//host"). */
export function returnPath(state: unknown): string {
  const from = (state as LoginState | null)?.from;
  return typeof from === "string" && /^\/admin(?:[?#]|$)/.test(from) ? from : "/admin";
}

export function sessionExpired(state: unknown): boolean {
  return (state as LoginState | null)?.expired === true;
}
