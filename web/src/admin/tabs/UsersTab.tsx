import { AccountPanel } from "./AccountPanel";
import { ResponseSettingsPanel } from "./ResponseSettingsPanel";
import { TeamPanel } from "./TeamPanel";

/** "Gebruikers": one's own account (password, two-factor sign-in) and the team of admins. */
export function UsersTab() {
  return (
    <div className="space-y-6">
      <AccountPanel />
      <TeamPanel />
      <ResponseSettingsPanel />
    </div>
  );
}
