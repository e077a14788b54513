import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { errorStatus, userErrorMessage } from "../../api/client";
import { COMPANY_SETTINGS_KEY } from "../../api/public";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, fetchCompanySettings, sendTestEmail, updateCompanySettings } from "../api";
import { Badge, Button, Field, inputClass, LoadFailed, LoadingText, Panel } from "../../components/ui";
import {
  EMAIL_STATUS_TEXT,
  FORMAT_INVALID,
  FORMAT_VALID,
  canSendTest,
  changedEmailFields,
  KEY_UNREADABLE_TEXT,
  draftFromSettings,
  draftProblems,
  emailSettingsStatus,
  hasUnsavedChanges,
  isApiKeyFormatValid,
  isSenderFormatValid,
  type EmailSettingsDraft,
} from "../lib/email-settings";
import { formatAmsterdamTime } from "../lib/format";
import { useForm } from "../../lib/use-form";
import { WebhookSettingsPanel } from "./WebhookSettingsPanel";
import { EmailTemplatesPanel } from "./EmailTemplatesPanel";

const STATUS_TONE = {
  configured: "green",
  key_unreadable: "red",
  sender_missing: "yellow",
  key_missing: "yellow",
  not_configured: "red",
} as const;

export function EmailSettingsTab() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const settings = useQuery({ queryKey: ADMIN_KEYS.companySettings, queryFn: fetchCompanySettings });
  const stored = draftFromSettings(settings.data);
  // Always editable: the stored values until the admin types; Herstel puts them back.
  const form = useForm({
    initial: stored,
    submit: (values: EmailSettingsDraft) => updateCompanySettings(changedEmailFields(stored, values)),
    onSuccess: (saved) => {
      queryClient.setQueryData(ADMIN_KEYS.companySettings, saved);
      void queryClient.invalidateQueries({ queryKey: COMPANY_SETTINGS_KEY });
      notify({
        title: "Opgeslagen",
        description: `E-mail instellingen bijgewerkt op ${formatAmsterdamTime(saved.updatedAt ?? new Date())}`,
      });
    },
    onFailed: () =>
      notify({ title: "Fout", description: "Kon e-mail instellingen niet opslaan", variant: "destructive" }),
  });
  const { values: current, errors } = form;
  const unsaved = hasUnsavedChanges(stored, current);

  useEffect(() => {
    if (settings.isError)
      notify({ title: "Fout", description: "Kon e-mail instellingen niet laden", variant: "destructive" });
  }, [settings.isError, notify]);

  // The notification switch is saved at once, apart from the key and sender above. The value clicked
  // shows at once (state set in the click itself, so React never puts the old one back while the
  // mutation is still starting), until the answer is in the cache; a failure shows the stored one.
  const [notifyClicked, setNotifyClicked] = useState<boolean | null>(null);
  const notifySwitch = useMutation({
    mutationFn: (on: boolean) => updateCompanySettings({ notifyCompanyEmail: on }),
    onSuccess: (saved) => {
      queryClient.setQueryData(ADMIN_KEYS.companySettings, saved);
      notify({
        title: "Opgeslagen",
        description: `De melding per e-mail bij nieuwe aanvragen staat ${saved.notifyCompanyEmail ? "aan" : "uit"}.`,
      });
    },
    onError: () =>
      notify({ title: "Fout", description: "Kon e-mail instellingen niet opslaan", variant: "destructive" }),
  });
  const test = useMutation({
    mutationFn: async () => {
      // The test uses the stored settings, so unsaved changes are saved first.
      if (unsaved && !(await form.submit())) return;
      try {
        // Answers once SendGrid accepted the e-mail (or refused it, or stayed silent for 8 s).
        const sent = await sendTestEmail();
        notify({ title: "Test e-mail verzonden", description: `Controleer de inbox van ${sent.to}` });
      } catch (error) {
        notify({
          title: "Test gefaald",
          description: testFailure(error),
          variant: "destructive",
        });
      }
    },
  });

  if (settings.isPending) return <LoadingText />;
  if (settings.isError)
    return (
      <LoadFailed
        title="E-mail Instellingen"
        query={settings}
        fallback="Kon e-mail instellingen niet laden"
      />
    );

  const keyUnreadable = settings.data.sendgridApiKeyUnreadable;
  // The badge says what the mailer has now (the saved settings); what is typed is judged apart.
  const status = emailSettingsStatus(stored, keyUnreadable);
  const draftStatus = emailSettingsStatus(current, keyUnreadable);
  const problems = draftProblems(current, keyUnreadable);
  const testable = canSendTest(current, keyUnreadable);
  const busy = form.pending || test.isPending;
  const startTest = () => {
    if (!testable) {
      notify(
        status === "key_unreadable"
          ? { title: "Test gefaald", description: `${KEY_UNREADABLE_TEXT}.`, variant: "destructive" }
          : {
              title: "Ontbrekende gegevens",
              description: "Vul eerst SendGrid API key en afzender e-mail in.",
              variant: "destructive",
            },
      );
      return;
    }
    test.mutate();
  };

  return (
    <div className="space-y-6">
      <Panel
        title="E-mail Instellingen"
        actions={
          <>
            <Button onClick={() => void form.submit()} disabled={!unsaved || busy}>
              {form.pending ? "Opslaan..." : "Opslaan"}
            </Button>
            <Button variant="secondary" disabled={!unsaved || busy} onClick={form.cancel}>
              Herstel
            </Button>
            {/* Looks disabled until both fields are set, but still explains what is missing when clicked. */}
            <Button
              variant="accent"
              onClick={startTest}
              disabled={busy}
              aria-disabled={!testable}
              className={testable ? "" : "opacity-50"}
            >
              {test.isPending ? "Test versturen..." : "Test e-mail versturen"}
            </Button>
          </>
        }
      >
        <div className="mb-6 space-y-3">
          <div className="flex flex-wrap items-center gap-3">
            <span className="text-sm font-semibold text-gray-800">
              Status van de opgeslagen instellingen:
            </span>
            <span data-testid="email-settings-status" className="min-w-0">
              <Badge tone={STATUS_TONE[status]} wrap>
                {EMAIL_STATUS_TEXT[status]}
              </Badge>
            </span>
          </div>
          {/* Said as it changes, without taking focus from the field being typed in. */}
          <div role="status" aria-live="polite">
            {unsaved && (
              <div
                data-testid="email-settings-draft"
                className={`rounded-card border p-3 text-sm ${problems.length ? "border-yellow-300 bg-yellow-50 text-yellow-900" : "border-blue-200 bg-blue-50 text-blue-900"}`}
              >
                <p className="font-semibold">
                  Niet opgeslagen wijzigingen: de status hierboven geldt voor de opgeslagen instellingen.
                </p>
                {problems.length ? (
                  <p className="mt-1">Zo ingevuld werkt het niet: {problems.join("; ")}.</p>
                ) : (
                  <p className="mt-1">Zo ingevuld: {EMAIL_STATUS_TEXT[draftStatus]}, zodra u opslaat.</p>
                )}
              </div>
            )}
          </div>
        </div>
        <div className="grid gap-5 md:grid-cols-2">
          <Field
            look="admin"
            id="sendgrid-key"
            label="SendGrid API key"
            error={
              errors.sendgridApiKey ??
              (draftStatus === "key_unreadable"
                ? "De key is versleuteld met een andere geheime sleutel (SETTINGS_ENCRYPTION_KEY) dan deze installatie heeft. Voer hem opnieuw in en sla op."
                : undefined)
            }
            hint={
              current.sendgridApiKey.trim() ? (
                <FormatBadge valid={isApiKeyFormatValid(current.sendgridApiKey)} />
              ) : (
                "Een SendGrid API key begint met SG."
              )
            }
          >
            <input
              id="sendgrid-key"
              className={`${inputClass("admin")} font-mono`}
              autoComplete="off"
              spellCheck={false}
              placeholder="SG.xxxxxxxx"
              value={current.sendgridApiKey}
              onChange={(event) => form.set("sendgridApiKey", event.target.value)}
            />
          </Field>
          <Field
            look="admin"
            id="from-email"
            label="Afzender e-mail"
            error={errors.fromEmailAddress}
            hint={
              current.fromEmailAddress.trim() ? (
                <FormatBadge valid={isSenderFormatValid(current.fromEmailAddress)} />
              ) : (
                "Het adres waarvandaan e-mails worden verstuurd"
              )
            }
          >
            <input
              id="from-email"
              type="email"
              className={inputClass("admin")}
              autoComplete="off"
              placeholder="info@uwbedrijf.nl"
              value={current.fromEmailAddress}
              onChange={(event) => form.set("fromEmailAddress", event.target.value)}
            />
          </Field>
        </div>
        <div className="mt-6 border-t border-gray-200 pt-5">
          <label htmlFor="notify-company" className="flex items-start gap-3">
            <input
              id="notify-company"
              type="checkbox"
              className="mt-1 h-4 w-4"
              checked={notifyClicked ?? settings.data.notifyCompanyEmail}
              disabled={notifySwitch.isPending}
              onChange={(event) => {
                const on = event.target.checked;
                setNotifyClicked(on);
                notifySwitch.mutate(on, { onSettled: () => setNotifyClicked(null) });
              }}
            />
            <span>
              <span className="text-sm font-semibold text-gray-800">
                Melding per e-mail bij nieuwe aanvragen
              </span>
              <span className="mt-1 block text-xs text-gray-600">
                Het bedrijfsadres krijgt bij elke nieuwe lease aanvraag en elk contactbericht een e-mail met
                een link naar de aanvraag in het beheer.
              </span>
            </span>
          </label>
        </div>
        <p className="mt-6 text-sm text-gray-600">
          De opgeslagen API key wordt gemaskeerd getoond. Laat het veld ongewijzigd om de huidige key te
          behouden.
        </p>
      </Panel>
      <WebhookSettingsPanel />
      <EmailTemplatesPanel />
    </div>
  );
}

const TEST_FAILED = "Kon geen test e-mail verzenden. Controleer de instellingen.";
const SERVER_UNREACHABLE =
  "Kon geen test e-mail verzenden: de server was niet bereikbaar. Controleer uw internetverbinding en probeer het opnieuw.";

/**
 * The failed test e-mail's text, naming the reason the server gave (in Dutch): the stored key unreadable, SendGrid's
 * refusal with its own words, SendGrid unreachable, the settings unavailable; this browser's own
 * network failure when no answer came at all.
 */
function testFailure(error: unknown): string {
  if (errorStatus(error) === undefined) return SERVER_UNREACHABLE;
  const message = userErrorMessage(error, "");
  return message && !/^\d{3}:/.test(message) ? message : TEST_FAILED;
}

function FormatBadge({ valid }: { valid: boolean }) {
  return <Badge tone={valid ? "green" : "yellow"}>{valid ? FORMAT_VALID : FORMAT_INVALID}</Badge>;
}
