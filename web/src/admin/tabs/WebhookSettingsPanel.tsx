import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { fieldErrors } from "../../api/client";
import { useNotice } from "../../components/notice";
import { fetchEmailSettings, rotateInboundUrl, saveEventWebhookKey, saveReplyAddress } from "../api";
import { Button, Field, LoadFailed, LoadingText, Panel, TextField } from "../../components/ui";
import { useForm } from "../../lib/use-form";
import { formatAmsterdamDateTime } from "../lib/format";

const KEY = ["/api/admin/email-settings"];
const ROTATE_QUESTION =
  "De huidige link voor binnenkomende e-mail werkt daarna niet meer: vul de nieuwe in bij SendGrid (Inbound Parse). Doorgaan?";

const when = (at: string | null, never: string) => (at ? formatAmsterdamDateTime(at) : never);

/**
 * E-mail Instellingen' SendGrid webhooks (README "Pointing SendGrid at the webhooks"): the reply
 * address, the secret Inbound Parse link (shown once), the Event Webhook's verification key.
 */
export function WebhookSettingsPanel() {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  const state = useQuery({ queryKey: KEY, queryFn: fetchEmailSettings, staleTime: 0 });
  const [newUrl, setNewUrl] = useState<string | null>(null);
  const saved = () => void queryClient.invalidateQueries({ queryKey: KEY });
  const failed = (error: unknown) =>
    notifyError("Fout bij Opslaan", error, "Er is een fout opgetreden bij het opslaan");
  // The stored reply address until the admin types; the key field starts empty each time.
  const reply = useForm({
    initial: { replyAddress: state.data?.replyAddress ?? "" },
    submit: (values) => saveReplyAddress(values.replyAddress.trim() || null),
    serverErrors: (error) => ({ replyAddress: fieldErrors(error).replyAddress }),
    onSuccess: () => {
      notify({ title: "Opgeslagen", description: "Het antwoordadres is bijgewerkt." });
      saved();
    },
  });
  const verification = useForm({
    initial: { verificationKey: "" },
    submit: (values) => saveEventWebhookKey(values.verificationKey),
    serverErrors: (error) => ({ verificationKey: fieldErrors(error).verificationKey }),
    onSuccess: () => {
      notify({
        title: "Opgeslagen",
        description: "De verificatiesleutel van de Event Webhook is ingesteld.",
      });
      saved();
    },
  });
  const rotate = useMutation({
    mutationFn: rotateInboundUrl,
    onSuccess: ({ url }) => {
      setNewUrl(url);
      saved();
    },
    onError: failed,
  });

  if (state.isPending) return <LoadingText />;
  if (state.isError)
    return (
      <LoadFailed
        title="Antwoorden en afleverstatus"
        query={state}
        fallback="Kon de instellingen niet laden"
      />
    );
  const data = state.data;

  return (
    <Panel title="Antwoorden en afleverstatus (SendGrid)">
      <div className="space-y-6" data-testid="webhook-settings">
        <form className="space-y-2" onSubmit={reply.onSubmit}>
          <TextField
            id="reply-address"
            label="Antwoordadres"
            type="email"
            {...reply.text("replyAddress")}
            hint="Een adres op het domein waarvan het MX-record naar SendGrid wijst, bijv. antwoord@reply.uwbedrijf.nl. E-mails vanuit het beheer krijgen dit adres (met een kenmerk van de aanvraag) als antwoordadres."
          />
          <Button type="submit" disabled={reply.pending || !reply.editing}>
            {reply.pending ? "Opslaan..." : "Antwoordadres opslaan"}
          </Button>
        </form>

        <div className="space-y-2">
          <h3 className="text-sm font-semibold text-gray-800">
            Link voor binnenkomende e-mail (Inbound Parse)
          </h3>
          <p className="text-sm text-gray-700" data-testid="inbound-state">
            {data.inboundUrlSet
              ? `Er is een geheime link, gemaakt op ${when(data.inboundUrlRotatedAt, "onbekend")}. Laatst ontvangen: ${when(data.inboundLastReceivedAt, "nog niets")}.`
              : "Er is nog geen link: antwoorden van klanten komen pas binnen als SendGrid er een heeft."}
          </p>
          {newUrl && (
            <div className="rounded-card border border-yellow-300 bg-yellow-50 p-3 text-sm" role="status">
              <p className="font-medium text-gray-900">
                Kopieer deze link nu naar SendGrid (Settings → Inbound Parse); hij wordt maar één keer
                getoond:
              </p>
              <code className="mt-1 block break-all text-gray-900" data-testid="inbound-url">
                {newUrl}
              </code>
            </div>
          )}
          <Button
            variant={data.inboundUrlSet ? "secondary" : "primary"}
            disabled={rotate.isPending}
            onClick={() => {
              if (!data.inboundUrlSet || window.confirm(ROTATE_QUESTION)) rotate.mutate();
            }}
          >
            {data.inboundUrlSet ? "Nieuwe geheime link maken" : "Geheime link maken"}
          </Button>
        </div>

        <form className="space-y-2" onSubmit={verification.onSubmit}>
          <Field
            look="admin"
            id="event-webhook-key"
            label="Verificatiesleutel Event Webhook"
            error={verification.errors.verificationKey}
            hint={
              data.eventWebhookKeySet
                ? `Ingesteld op ${when(data.eventWebhookKeySetAt, "onbekend")}; laatst ontvangen: ${when(data.eventWebhookLastReceivedAt, "nog niets")}. Plak een nieuwe sleutel om hem te vervangen.`
                : "Plak de Verification Key van de Signed Event Webhook uit SendGrid (Settings → Mail Settings → Event Webhook)."
            }
          >
            {(control) => (
              <textarea
                {...control}
                rows={3}
                value={verification.values.verificationKey}
                onChange={(event) => verification.set("verificationKey", event.target.value)}
              />
            )}
          </Field>
          <Button
            type="submit"
            disabled={verification.pending || verification.values.verificationKey.trim() === ""}
          >
            {verification.pending ? "Opslaan..." : "Sleutel opslaan"}
          </Button>
        </form>
      </div>
    </Panel>
  );
}
