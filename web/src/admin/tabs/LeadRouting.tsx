import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type AdminUser, type AdminUserList, type AssignmentRule } from "@lease/contracts";
import { useState } from "react";
import { userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, fetchAccount, fetchResponseSettings, setUserTakesNewLeads, updateAccount } from "../api";
import { Button, LoadError, LoadingText, TextField } from "../../components/ui";
import { useForm } from "../../lib/use-form";

// "Gebruikers", the parts about who answers leads: each admin's switch for new leads, what a
// disable or removal does to their open leads, and one's own notices (late leads, weekly summary).

/** The switch "Krijgt nieuwe aanvragen" of one admin (audited; leads hears of it). */
export function TakesNewLeadsSwitch({ user }: { user: AdminUser }) {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  // Shown switched at once (the value clicked, until the change is answered); back as it was when
  // the change fails.
  const [clicked, setClicked] = useState<boolean>();
  const change = useMutation({
    mutationFn: (next: boolean) => setUserTakesNewLeads(user.id, next),
    // A reload of the list still on its way (asked for by the last change) was answered before
    // this change: it would switch the switch back for a moment, under the next click.
    onMutate: () => queryClient.cancelQueries({ queryKey: ADMIN_KEYS.users }),
    onSuccess: (updated) => {
      notify({
        title: "Opgeslagen",
        description: updated.takesNewLeads
          ? `${updated.username} krijgt nieuwe aanvragen.`
          : `${updated.username} krijgt geen nieuwe aanvragen meer.`,
      });
      queryClient.setQueryData<AdminUserList>(ADMIN_KEYS.users, (list) =>
        list ? { ...list, items: list.items.map((u) => (u.id === updated.id ? updated : u)) } : list,
      );
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.users });
    },
    onError: (error) => notifyError("Wijzigen mislukt", error, "Probeer het opnieuw."),
    onSettled: () => setClicked(undefined),
  });
  const on = clicked ?? user.takesNewLeads;
  return (
    <label className="inline-flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        role="switch"
        checked={on}
        disabled={change.isPending || user.disabled}
        aria-label={`Krijgt nieuwe aanvragen: ${user.username}`}
        onChange={(event) => {
          setClicked(event.target.checked);
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

interface NoticeValues {
  notifyEmail: string;
  overdueEmail: boolean;
  weeklySummary: boolean;
}

const checkNotices = (values: NoticeValues) => ({
  notifyEmail:
    (values.overdueEmail || values.weeklySummary) && !values.notifyEmail.trim()
      ? "Vul eerst een e-mailadres in om e-mails te ontvangen"
      : undefined,
});

/** "Mijn account": where one's own notices go, and which e-mails one wants. */
export function NoticesForm() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const account = useQuery({ queryKey: ADMIN_KEYS.account, queryFn: fetchAccount });
  const form = useForm({
    initial: {
      notifyEmail: account.data?.notifyEmail ?? "",
      overdueEmail: account.data?.overdueEmail ?? false,
      weeklySummary: account.data?.weeklySummary ?? false,
    },
    validate: checkNotices,
    submit: (values: NoticeValues) =>
      updateAccount({ ...values, notifyEmail: values.notifyEmail.trim() || null }),
    onSuccess: (saved) => {
      queryClient.setQueryData(ADMIN_KEYS.account, saved);
      notify({ title: "Opgeslagen", description: "Je meldingen zijn bijgewerkt." });
    },
    // What failed is said at the address field, without a notice.
    onFailed: (failure, fields) => {
      if (!fields.notifyEmail)
        form.setErrors({ notifyEmail: userErrorMessage(failure, "Kon je meldingen niet opslaan") });
    },
  });
  const { values } = form;
  if (account.isError && !account.data)
    return <LoadError query={account} fallback="Je meldingen konden niet worden geladen." />;
  if (!account.data) return <LoadingText />;
  return (
    <form onSubmit={form.onSubmit} noValidate className="space-y-3" aria-labelledby="meldingen-titel">
      <h3 id="meldingen-titel" className="font-semibold text-gray-900">
        Meldingen per e-mail
      </h3>
      <TextField
        id="meldingen-email"
        label="E-mailadres voor meldingen"
        type="email"
        autoComplete="email"
        maxLength={254}
        {...form.text("notifyEmail")}
      />
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={values.overdueEmail}
          onChange={(event) => form.set("overdueEmail", event.target.checked)}
        />
        E-mail als een aanvraag van mij te laat is
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={values.weeklySummary}
          onChange={(event) => form.set("weeklySummary", event.target.checked)}
        />
        Wekelijkse samenvatting (maandag 08:00)
      </label>
      <Button type="submit" disabled={form.pending}>
        {form.pending ? "Opslaan..." : "Meldingen opslaan"}
      </Button>
    </form>
  );
}
