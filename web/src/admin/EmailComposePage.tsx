import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useSearchParams } from "react-router-dom";
import { userErrorMessage } from "../api/client";
import { useNotice } from "../components/notice";
import { ADMIN_KEYS, fetchCompanySettings, fieldErrors, findLeaseRequest, sendEmail } from "./api";
import { Button, Panel, SettingsField, TEXT_INPUT } from "./components/ui";
import { COMPOSE_CLOSE_DELAY_MS, validateCompose, type ComposeErrors } from "./lib/compose-form";
import { companyDetailLines, composeTemplate, type ComposeDraft } from "./lib/compose-template";

const EMPTY: ComposeDraft = { to: "", subject: "", message: "" };

export default function EmailComposePage() {
  const [params] = useSearchParams();
  const requestId = params.get("requestId");
  const { notify } = useNotice();
  const [draft, setDraft] = useState<ComposeDraft>(EMPTY);
  const [errors, setErrors] = useState<ComposeErrors>({});
  const [sent, setSent] = useState(false);
  const prefilled = useRef(false);

  // SPEC §6: the compose page does not redirect on a failed session; the send simply fails.
  const company = useQuery({ queryKey: ADMIN_KEYS.companySettings, queryFn: fetchCompanySettings });
  const request = useQuery({
    queryKey: [...ADMIN_KEYS.leaseRequests, "by-id", requestId],
    queryFn: () => findLeaseRequest(requestId!),
    enabled: Boolean(requestId),
  });

  useEffect(() => {
    if (prefilled.current || !request.data || !company.data) return;
    prefilled.current = true;
    setDraft(composeTemplate(request.data, company.data));
  }, [request.data, company.data]);

  const send = useMutation({
    mutationFn: sendEmail,
    onSuccess: () => {
      setSent(true);
      notify({ title: "E-mail Verzonden", description: `De e-mail aan ${draft.to.trim()} wordt verstuurd.` });
      setTimeout(() => window.close(), COMPOSE_CLOSE_DELAY_MS);
    },
    onError: (error) => {
      setErrors(fieldErrors(error));
      notify({
        title: "Fout bij Verzenden",
        description: userErrorMessage(error, "Er is een fout opgetreden bij het verzenden"),
        variant: "destructive",
      });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const clientErrors = validateCompose(draft);
    setErrors(clientErrors);
    if (Object.keys(clientErrors).length > 0) return;
    send.mutate({
      to: draft.to.trim(),
      subject: draft.subject.trim(),
      message: draft.message,
      leaseRequestId: requestId && request.data ? requestId : null,
    });
  };
  const close = () => window.close();
  const busy = send.isPending || sent;

  return (
    <div className="min-h-screen bg-gray-50">
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto flex max-w-3xl items-center justify-between gap-3 px-4 py-4">
          <h1 className="text-xl font-bold text-gray-900">E-mail Opstellen</h1>
          <Button variant="secondary" onClick={close}>
            Sluiten
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-3xl space-y-6 px-4 py-6">
        {requestId && request.isPending && <p className="text-sm text-gray-600">Aanvraag laden...</p>}
        {requestId && request.isError && (
          <p className="rounded-card border border-red-300 bg-red-50 p-3 text-sm text-red-900" role="alert">
            De lease aanvraag kon niet worden geladen; vul de e-mail zelf in.
          </p>
        )}
        {requestId && request.data === null && (
          <p className="rounded-card border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900">
            De lease aanvraag is niet gevonden; vul de e-mail zelf in.
          </p>
        )}
        <Panel>
          <form onSubmit={submit} noValidate className="space-y-4">
            <SettingsField id="compose-to" label="Aan" error={errors.to}>
              <input
                id="compose-to"
                type="email"
                className={TEXT_INPUT}
                value={draft.to}
                disabled={busy}
                aria-invalid={Boolean(errors.to)}
                onChange={(event) => setDraft({ ...draft, to: event.target.value })}
              />
            </SettingsField>
            <SettingsField id="compose-subject" label="Onderwerp" error={errors.subject}>
              <input
                id="compose-subject"
                className={TEXT_INPUT}
                value={draft.subject}
                disabled={busy}
                aria-invalid={Boolean(errors.subject)}
                onChange={(event) => setDraft({ ...draft, subject: event.target.value })}
              />
            </SettingsField>
            <SettingsField id="compose-message" label="Bericht" error={errors.message}>
              <textarea
                id="compose-message"
                rows={12}
                className={`${TEXT_INPUT} font-mono text-sm`}
                value={draft.message}
                disabled={busy}
                aria-invalid={Boolean(errors.message)}
                onChange={(event) => setDraft({ ...draft, message: event.target.value })}
              />
            </SettingsField>
            <div
              className="rounded-card border border-blue-200 bg-blue-50 p-4 text-sm text-blue-900"
              data-testid="company-box"
            >
              <p className="font-semibold">Deze bedrijfsgegevens worden automatisch toegevoegd:</p>
              <ul className="mt-2 space-y-0.5">
                {companyDetailLines(company.data).map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="secondary" onClick={close}>
                Annuleren
              </Button>
              <Button type="submit" disabled={busy}>
                {send.isPending ? "Verzenden..." : "Verzenden"}
              </Button>
            </div>
          </form>
        </Panel>
      </main>
    </div>
  );
}
