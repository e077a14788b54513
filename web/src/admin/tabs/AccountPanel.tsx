import { useQuery, useQueryClient } from "@tanstack/react-query";
import { NEW_PASSWORD_MIN_LENGTH } from "@lease/contracts";
import { useNotice } from "../../components/notice";
import { Button, LoadError, Panel, TextField } from "../../components/ui";
import { useForm } from "../../lib/use-form";
import { ADMIN_KEYS, changePassword, fetchAccount } from "../api";
import { NoticesForm } from "./LeadRouting";
import { TwoFactorSection } from "./TwoFactorSection";

const NEW_PASSWORD_TOO_SHORT = `Het wachtwoord moet minimaal ${NEW_PASSWORD_MIN_LENGTH} tekens hebben`;
const PASSWORDS_DIFFER = "De wachtwoorden zijn niet gelijk";

/** "Mijn account": one's own password, two-factor sign-in and notices. */
export function AccountPanel() {
  // Two-factor sign-in and the notices read the same account: when it cannot be loaded, that is
  // said once, with one way to try again, instead of once per part.
  const account = useQuery({ queryKey: ADMIN_KEYS.account, queryFn: fetchAccount, staleTime: 0 });
  return (
    <Panel title="Mijn account">
      <div className="grid gap-8 lg:grid-cols-2">
        <ChangePasswordForm />
        {account.isError && !account.data ? (
          <LoadError query={account} fallback="Je account kon niet worden geladen." />
        ) : (
          <>
            <TwoFactorSection />
            <NoticesForm />
          </>
        )}
      </div>
    </Panel>
  );
}

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  repeat: string;
}
const NO_PASSWORDS: PasswordValues = { currentPassword: "", newPassword: "", repeat: "" };

function checkPasswords(values: PasswordValues) {
  return {
    currentPassword: values.currentPassword ? undefined : "Huidig wachtwoord is verplicht",
    newPassword: values.newPassword.length < NEW_PASSWORD_MIN_LENGTH ? NEW_PASSWORD_TOO_SHORT : undefined,
    repeat: values.repeat !== values.newPassword ? PASSWORDS_DIFFER : undefined,
  };
}

function ChangePasswordForm() {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  const form = useForm({
    initial: NO_PASSWORDS,
    validate: checkPasswords,
    submit: (values: PasswordValues) => changePassword(values.currentPassword, values.newPassword),
    onSuccess: (session) => {
      queryClient.setQueryData(ADMIN_KEYS.me, session);
      notify({
        title: "Wachtwoord gewijzigd",
        description: "Je andere sessies zijn beëindigd; hier blijf je ingelogd.",
      });
    },
    onFailed: (error, fields) => {
      if (!fields.currentPassword && !fields.newPassword)
        notifyError("Wijzigen mislukt", error, "Het wachtwoord kon niet worden gewijzigd.");
    },
  });
  const field = (key: keyof PasswordValues, id: string, label: string, autoComplete: string) => (
    <TextField
      id={id}
      label={label}
      type="password"
      autoComplete={autoComplete}
      disabled={form.pending}
      {...form.text(key)}
    />
  );
  return (
    <form onSubmit={form.onSubmit} noValidate className="space-y-4" aria-labelledby="wachtwoord-wijzigen">
      <h3 id="wachtwoord-wijzigen" className="font-semibold text-gray-900">
        Wachtwoord wijzigen
      </h3>
      {field("currentPassword", "huidig-wachtwoord", "Huidig wachtwoord", "current-password")}
      {field("newPassword", "nieuw-wachtwoord", "Nieuw wachtwoord", "new-password")}
      {field("repeat", "herhaal-wachtwoord", "Herhaal nieuw wachtwoord", "new-password")}
      <p className="text-xs text-gray-600">Al je andere sessies worden daarbij beëindigd.</p>
      <Button type="submit" disabled={form.pending}>
        {form.pending ? "Opslaan..." : "Wachtwoord wijzigen"}
      </Button>
    </form>
  );
}
