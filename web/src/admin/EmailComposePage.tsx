import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { userErrorMessage } from "../api/client";
import { useNotice } from "../components/notice";
import {
  ADMIN_KEYS,
  cancelEmail,
  fetchCompanySettings,
  fetchEmail,
  fetchEmailTemplates,
  fetchMe,
  findLeaseRequest,
  retryEmail,
  sendEmail,
} from "./api";
import { Button, Field, inputClass, Panel } from "../components/ui";
import { useForm } from "../lib/use-form";
import {
  COMPOSE_CLOSE_DELAY_MS,
  COMPOSE_FIELDS,
  validateCompose,
  type ComposeErrors,
} from "./lib/compose-form";
import { companyDetailLines, composeTemplate, type ComposeDraft } from "./lib/compose-template";
import { fillTemplate } from "./lib/email-template-fill";
import { TemplatePicker } from "./components/TemplatePicker";
import {
  DELIVERY_LABELS,
  deliveryFromOutcome,
  deliveryOf,
  mergeDelivery,
  type DeliveryState,
} from "./lib/delivery";
import { useMailOutcomes } from "./lib/use-admin-socket";
import { quotedReply, replySubject } from "./lib/inbox";

const EMPTY: ComposeDraft = { to: "", subject: "", message: "" };
/** While the admin socket is down, the compose window asks for the e-mail's state this often. */
const POLL_WHILE_OFFLINE_MS = 5_000;

export default function EmailComposePage() {
  const [params] = useSearchParams();
  const requestId = params.get("requestId");
  const { notify, notifyError } = useNotice();
  // A send the server refused stays said on the page (the notice goes after a few seconds).
  const [sendError, setSendError] = useState<string | null>(null);
  const formElement = useRef<HTMLFormElement>(null);
  // The first field with a message gets the focus, where the admin has to act: once it is enabled
  // again (a server's answer arrives while the fields are disabled for the send).
  const focusField = useRef<string | null>(null);
  // null until SendGrid's answer is awaited: queued, then sent or failed (with the reason).
  const [delivery, setDelivery] = useState<DeliveryState | null>(null);
  const prefilled = useRef(false);
  const waiting = delivery !== null && (delivery.status === "queued" || delivery.status === "retrying");

  // The outcome comes over the admin socket; a read of the e-mail covers what happened before the
  // socket was there, and a poll stands in while it is down.
  const connected = useMailOutcomes((outcome) =>
    setDelivery((current) => mergeDelivery(current, deliveryFromOutcome(outcome))),
  );
  const stored = useQuery({
    queryKey: [...ADMIN_KEYS.emails, "one", delivery?.id],
    queryFn: () => fetchEmail(delivery!.id),
    enabled: waiting,
    refetchInterval: connected ? false : POLL_WHILE_OFFLINE_MS,
    staleTime: 0,
  });
  const refetchStored = stored.refetch;
  useEffect(() => {
    if (stored.data) setDelivery((current) => mergeDelivery(current, deliveryOf(stored.data)));
  }, [stored.data]);
  useEffect(() => {
    if (connected && waiting) void refetchStored();
    // Only when the socket (re)connects: anything it missed is read once.
  }, [connected]);

  // The compose page does not redirect on a failed session; the send simply fails.
  const company = useQuery({ queryKey: ADMIN_KEYS.companySettings, queryFn: fetchCompanySettings });
  // A template's {{mijn_naam}} is the signed-in admin's name.
  const me = useQuery({ queryKey: ADMIN_KEYS.me, queryFn: fetchMe, retry: false });
  const request = useQuery({
    queryKey: [...ADMIN_KEYS.leaseRequests, "by-id", requestId],
    queryFn: () => findLeaseRequest(requestId!),
    enabled: Boolean(requestId),
  });
  // "Beantwoorden" in the inbox: ?replyTo=<e-mail id>, to its sender with "Re: <subject>".
  const replyTo = params.get("replyTo");
  const replied = useQuery({
    queryKey: [...ADMIN_KEYS.emails, "one", replyTo],
    queryFn: () => fetchEmail(replyTo!),
    enabled: Boolean(replyTo) && !requestId,
  });

  // The lead's follow-up is the default template as staff keep it (E-mail Instellingen); the
  // built-in text while the templates cannot be read.
  const templates = useQuery({ queryKey: ["/api/admin/email-templates"], queryFn: fetchEmailTemplates });
  const standard = templates.data?.find((t) => t.isDefault);
  useEffect(() => {
    if (prefilled.current || !request.data || !company.data || templates.isPending || me.isPending) return;
    prefilled.current = true;
    const template = composeTemplate(request.data, company.data);
    form.change(
      standard
        ? {
            to: template.to,
            ...fillTemplate(standard, {
              request: request.data,
              company: company.data,
              me: me.data?.admin.username,
            }),
          }
        : template,
    );
  }, [request.data, company.data, templates.isPending, standard, me.isPending, me.data]);
  useEffect(() => {
    if (prefilled.current || !replied.data) return;
    prefilled.current = true;
    // Answering keeps the conversation threaded: "Re: …" and the customer's words quoted below.
    form.change({
      to: replied.data.senderEmail,
      subject: replySubject(replied.data.subject),
      message: quotedReply(replied.data),
    });
  }, [replied.data]);

  const status = delivery?.status;
  useEffect(() => {
    if (status === "sent") {
      notify({ title: "E-mail Verzonden", description: `De e-mail aan ${draft.to.trim()} is verzonden.` });
      const timer = setTimeout(() => window.close(), COMPOSE_CLOSE_DELAY_MS);
      return () => clearTimeout(timer);
    }
    if (status === "failed")
      notify({
        title: "Verzenden mislukt",
        description: delivery?.reason ?? undefined,
        variant: "destructive",
      });
    // Once per decided state; the texts are read at that moment.
  }, [status]);

  const queuedNotice = () =>
    notify({
      title: "In de wachtrij",
      description: `De e-mail aan ${draft.to.trim()} wacht op SendGrid. Hier zie je of hij is verzonden.`,
    });
  // The values stay after the send: the fields show what went (held while SendGrid answers), and
  // the notices name its address.
  const form = useForm({
    initial: EMPTY,
    validate: validateCompose,
    keepValues: true,
    submit: (draft: ComposeDraft) => {
      setSendError(null);
      return sendEmail({
        to: draft.to.trim(),
        subject: draft.subject.trim(),
        message: draft.message,
        leaseRequestId: requestId && request.data ? requestId : (replied.data?.leaseRequestId ?? null),
        // Threads the answer under the customer's e-mail in their mail client (In-Reply-To, References).
        inReplyToEmailId: replied.data?.id ?? null,
      });
    },
    onSuccess: ({ id }) => {
      setDelivery({ id, status: "queued", reason: null });
      queuedNotice();
    },
    onInvalid: (errors: ComposeErrors) => {
      focusField.current = COMPOSE_FIELDS.find((field) => errors[field]) ?? null;
    },
    onFailed: (error) => {
      const message = userErrorMessage(error, "Er is een fout opgetreden bij het verzenden");
      setSendError(message);
      notify({ title: "Fout bij Verzenden", description: message, variant: "destructive" });
    },
  });
  const { values: draft, errors } = form;

  const retry = useMutation({
    mutationFn: retryEmail,
    onSuccess: ({ id }) => {
      setDelivery({ id, status: "queued", reason: null });
      queuedNotice();
    },
    onError: (error) =>
      notifyError("Fout bij Verzenden", error, "Er is een fout opgetreden bij het verzenden"),
  });
  // "Verzenden annuleren" of an e-mail that is queued or keeps failing: it is then not sent.
  const cancel = useMutation({
    mutationFn: cancelEmail,
    onSuccess: ({ id, reason }) => setDelivery({ id, status: "failed", reason }),
    onError: (error) => {
      notifyError("Annuleren mislukt", error, "Er is een fout opgetreden bij het annuleren");
      if (delivery) void refetchStored();
    },
  });
  const close = () => window.close();
  const busy = form.pending || delivery !== null;
  useEffect(() => {
    if (!focusField.current || busy) return;
    formElement.current?.querySelector<HTMLElement>(`#compose-${focusField.current}`)?.focus();
    focusField.current = null;
  }, [errors, busy]);

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
        {sendError && !delivery && (
          <div
            className="rounded-card border border-red-300 bg-red-50 p-4 text-sm text-red-900"
            role="alert"
            data-testid="send-error"
          >
            <p className="font-semibold">Fout bij Verzenden</p>
            <p className="mt-1">{sendError}</p>
          </div>
        )}
        {delivery && (
          <DeliveryPanel
            delivery={delivery}
            retrying={retry.isPending}
            onRetry={() => retry.mutate(delivery.id)}
            cancelling={cancel.isPending}
            onCancel={() => cancel.mutate(delivery.id)}
          />
        )}
        <Panel>
          <form ref={formElement} onSubmit={form.onSubmit} noValidate className="space-y-4">
            <TemplatePicker
              disabled={busy}
              onPick={(template) => {
                const written = draft.subject.trim() !== "" || draft.message.trim() !== "";
                const question = `Het onderwerp en bericht worden vervangen door het sjabloon "${template.name}"; wat er nu staat gaat verloren. Doorgaan?`;
                if (written && !window.confirm(question)) return;
                const ctx = { request: request.data, company: company.data, me: me.data?.admin.username };
                form.change(fillTemplate(template, ctx));
              }}
            />
            <Field look="admin" id="compose-to" label="Aan" error={errors.to}>
              <input
                id="compose-to"
                type="email"
                className={inputClass("admin")}
                value={draft.to}
                disabled={busy}
                onChange={(event) => form.set("to", event.target.value)}
              />
            </Field>
            <Field look="admin" id="compose-subject" label="Onderwerp" error={errors.subject}>
              <input
                id="compose-subject"
                className={inputClass("admin")}
                value={draft.subject}
                disabled={busy}
                onChange={(event) => form.set("subject", event.target.value)}
              />
            </Field>
            <Field look="admin" id="compose-message" label="Bericht" error={errors.message}>
              <textarea
                id="compose-message"
                rows={12}
                className={`${inputClass("admin")} font-mono text-sm`}
                value={draft.message}
                disabled={busy}
                onChange={(event) => form.set("message", event.target.value)}
              />
            </Field>
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
                {form.pending ? "Verzenden..." : "Verzenden"}
              </Button>
            </div>
          </form>
        </Panel>
      </main>
    </div>
  );
}

const DELIVERY_STYLES: Record<DeliveryState["status"], string> = {
  queued: "border-yellow-300 bg-yellow-50 text-yellow-900",
  retrying: "border-yellow-300 bg-yellow-50 text-yellow-900",
  sent: "border-green-300 bg-green-50 text-green-900",
  failed: "border-red-300 bg-red-50 text-red-900",
};

/** Where the sent e-mail stands, live: in the queue, sent, or failed with the reason and a retry. */
function DeliveryPanel({
  delivery,
  retrying,
  onRetry,
  cancelling,
  onCancel,
}: {
  delivery: DeliveryState;
  retrying: boolean;
  onRetry: () => void;
  cancelling: boolean;
  onCancel: () => void;
}) {
  return (
    <div
      className={`rounded-card border p-4 ${DELIVERY_STYLES[delivery.status]}`}
      role="status"
      data-testid="delivery"
      data-status={delivery.status}
    >
      <p className="font-semibold">{DELIVERY_LABELS[delivery.status]}</p>
      {delivery.status === "queued" && (
        <p className="mt-1 text-sm">De e-mail wacht op het antwoord van SendGrid.</p>
      )}
      {delivery.status === "retrying" && (
        <p className="mt-1 text-sm">{delivery.reason} Er volgt automatisch een nieuwe poging.</p>
      )}
      {(delivery.status === "queued" || delivery.status === "retrying") && (
        <Button variant="secondary" className="mt-3" onClick={onCancel} disabled={cancelling}>
          {cancelling ? "Annuleren..." : "Verzenden annuleren"}
        </Button>
      )}
      {delivery.status === "sent" && <p className="mt-1 text-sm">Dit venster sluit vanzelf.</p>}
      {delivery.status === "failed" && (
        <>
          <p className="mt-1 text-sm">{delivery.reason}</p>
          <Button className="mt-3" onClick={onRetry} disabled={retrying}>
            {retrying ? "Opnieuw versturen..." : "Opnieuw versturen"}
          </Button>
        </>
      )}
    </div>
  );
}
