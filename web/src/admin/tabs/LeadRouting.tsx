import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type AdminUser, type AssignmentRule } from "@lease/contracts";
import { useEffect, useState, type FormEvent } from "react";
import { fieldErrors, userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, fetchAccount, fetchResponseSettings, setUserTakesNewLeads, updateAccount } from "../api";
import { Button, Field, inputClass, LoadError, LoadingText } from "../../components/ui";

// "Gebruikers", the parts about who answers leads: each admin's switch for new leads, what a
// disable or removal does to their open leads, and one's own notices (late leads, weekly summary).

/** The switch "Krijgt nieuwe aanvragen" of one admin (audited; leads hears of it). */
export function TakesNewLeadsSwitch({ user }: { user: AdminUser }) {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  // Shown switched at once; back as it was when the change fails.
  const [on, setOn] = useState(user.takesNewLeads);
  useEffect(() => setOn(user.takesNewLeads), [user.takesNewLeads]);
  const change = useMutation({
    mutationFn: (next: boolean) => setUserTakesNewLeads(user.id, next),
    onSuccess: (updated) => {
      notify({
        title: "Opgeslagen",
        description: updated.takesNewLeads
          ? `${updated.username} krijgt nieuwe aanvragen.`
          : `${updated.username} krijgt geen nieuwe aanvragen meer.`,
      });
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.users });
    },
    onError: (error) => {
      setOn(user.takesNewLeads);
      notifyError("Wijzigen mislukt", error, "Probeer het opnieuw.");
    },
  });
  return (
    <label className="inline-flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        role="switch"
        checked={on}
        disabled={change.isPending || user.disabled}
        aria-label={`Krijgt nieuwe aanvragen: ${user.username}`}
        onChange={(event) => {
          setOn(event.target.checked);
          change.mutate(event.target.checked);
        }}
      />
      <span aria-hidden="true">{on ? "Aan" : "Uit"}</span>
    </label>
  );
}

const HANDED_ON: Record<AssignmentRule, string> = {
  "round-robin": "gaan naar de andere beheerders die nieuwe aanvragen krijgen, om de beurt",
  "least-open": "gaan naar de beheerders met de minste open aanvragen",
  manual: "blijven zonder eigenaar tot iemand ze toewijst (toewijzing staat op handmatig)",
};

/** What a disable or removal says about the admin's open leads (the rule in force). */
export function useHandOnText(): (username: string) => string {
  const settings = useQuery({ queryKey: ADMIN_KEYS.responseSettings, queryFn: fetchResponseSettings });
  const rule = settings.data?.assignment;
  return (username) =>
    `De open aanvragen van ${username} ${rule ? HANDED_ON[rule] : "worden doorgegeven volgens de toewijzingsregel"}.`;
}

/** "Mijn account": where one's own notices go, and which e-mails one wants. */
export function NoticesForm() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const account = useQuery({ queryKey: ADMIN_KEYS.account, queryFn: fetchAccount });
  const [email, setEmail] = useState("");
  const [overdue, setOverdue] = useState(false);
  const [weekly, setWeekly] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => {
    if (!account.data) return;
    setEmail(account.data.notifyEmail ?? "");
    setOverdue(account.data.overdueEmail);
    setWeekly(account.data.weeklySummary);
  }, [account.data]);
  const save = useMutation({
    mutationFn: () =>
      updateAccount({ notifyEmail: email.trim() || null, overdueEmail: overdue, weeklySummary: weekly }),
    onSuccess: (saved) => {
      queryClient.setQueryData(ADMIN_KEYS.account, saved);
      notify({ title: "Opgeslagen", description: "Je meldingen zijn bijgewerkt." });
    },
    onError: (failure) =>
      setError(
        fieldErrors(failure).notifyEmail ?? userErrorMessage(failure, "Kon je meldingen niet opslaan"),
      ),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem =
      (overdue || weekly) && !email.trim()
        ? "Vul eerst een e-mailadres in om e-mails te ontvangen"
        : undefined;
    setError(problem);
    if (!problem) save.mutate();
  };
  if (account.isError && !account.data)
    return <LoadError query={account} fallback="Je meldingen konden niet worden geladen." />;
  if (!account.data) return <LoadingText />;
  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-labelledby="meldingen-titel">
      <h3 id="meldingen-titel" className="font-semibold text-gray-900">
        Meldingen per e-mail
      </h3>
      <Field look="admin" id="meldingen-email" label="E-mailadres voor meldingen" error={error}>
        <input
          id="meldingen-email"
          type="email"
          autoComplete="email"
          maxLength={254}
          className={inputClass("admin")}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={overdue} onChange={(event) => setOverdue(event.target.checked)} />
        E-mail als een aanvraag van mij te laat is
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={weekly} onChange={(event) => setWeekly(event.target.checked)} />
        Wekelijkse samenvatting (maandag 08:00)
      </label>
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? "Opslaan..." : "Meldingen opslaan"}
      </Button>
    </form>
  );
}
