import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { NEW_PASSWORD_MIN_LENGTH } from "@lease/contracts";
import { useState, type FormEvent } from "react";
import { fieldErrors } from "../../api/client";
import { useNotice } from "../../components/notice";
import { Button, LoadError, Panel, TextField } from "../../components/ui";
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

function ChangePasswordForm() {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<{ currentPassword?: string; newPassword?: string; repeat?: string }>(
    {},
  );
  const mutation = useMutation({
    mutationFn: () => changePassword(current, next),
    onSuccess: (session) => {
      queryClient.setQueryData(ADMIN_KEYS.me, session);
      setCurrent("");
      setNext("");
      setRepeat("");
      notify({
        title: "Wachtwoord gewijzigd",
        description: "Je andere sessies zijn beëindigd; hier blijf je ingelogd.",
      });
    },
    onError: (error) => {
      const fields = fieldErrors(error);
      if (fields.currentPassword || fields.newPassword) setErrors(fields);
      else notifyError("Wijzigen mislukt", error, "Het wachtwoord kon niet worden gewijzigd.");
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      currentPassword: current ? undefined : "Huidig wachtwoord is verplicht",
      newPassword: next.length < NEW_PASSWORD_MIN_LENGTH ? NEW_PASSWORD_TOO_SHORT : undefined,
      repeat: repeat !== next ? PASSWORDS_DIFFER : undefined,
    };
    setErrors(found);
    if (!found.currentPassword && !found.newPassword && !found.repeat) mutation.mutate();
  };
  const field = (
    id: string,
    label: string,
    value: string,
    set: (value: string) => void,
    error: string | undefined,
    autoComplete: string,
  ) => (
    <TextField
      id={id}
      label={label}
      error={error}
      type="password"
      autoComplete={autoComplete}
      value={value}
      disabled={mutation.isPending}
      onChange={set}
    />
  );
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-labelledby="wachtwoord-wijzigen">
      <h3 id="wachtwoord-wijzigen" className="font-semibold text-gray-900">
        Wachtwoord wijzigen
      </h3>
      {field(
        "huidig-wachtwoord",
        "Huidig wachtwoord",
        current,
        setCurrent,
        errors.currentPassword,
        "current-password",
      )}
      {field("nieuw-wachtwoord", "Nieuw wachtwoord", next, setNext, errors.newPassword, "new-password")}
      {field(
        "herhaal-wachtwoord",
        "Herhaal nieuw wachtwoord",
        repeat,
        setRepeat,
        errors.repeat,
        "new-password",
      )}
      <p className="text-xs text-gray-600">Al je andere sessies worden daarbij beëindigd.</p>
      <Button type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? "Opslaan..." : "Wachtwoord wijzigen"}
      </Button>
    </form>
  );
}
