import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ConversionEvent, ConversionSettings, GoogleConversionSettingsInput } from "@lease/contracts";
import { fieldErrors } from "../../api/client";
import { useNotice } from "../../components/notice";
import { Badge, Button, inputClass, LoadFailed, LoadingText, Panel, SaveForm } from "../../components/ui";
import { ADMIN_KEYS, fetchConversionSettings, updateConversionSettings } from "../api";
import { useForm } from "../../lib/use-form";
import { ConversionTestButton } from "./ConversionTestButton";

const ACTIONS: { event: ConversionEvent; label: string }[] = [
  { event: "lead", label: "Aanvraag" },
  { event: "offerte", label: "Offerte verstuurd" },
  { event: "getekend", label: "Contract getekend" },
];
type Kind = "serviceAccount" | "oauthClient";
interface Draft {
  enabled?: boolean;
  customerId?: string;
  actions: Partial<Record<ConversionEvent, string>>;
  kind?: Kind;
  serviceAccountKey: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}
const EMPTY: Draft = { actions: {}, serviceAccountKey: "", clientId: "", clientSecret: "", refreshToken: "" };
const SAVE_FAILED = { title: "Fout bij Opslaan", fallback: "Kon de instellingen voor Google niet opslaan" };
const REMOVE_QUESTION =
  "De opgeslagen inloggegevens van Google verwijderen? Ze zijn daarna weg (ze staan nergens anders opgeslagen) " +
  "en conversies naar Google gaan uit tot u nieuwe invult.";

/** The body of a save: only what was changed (an emptied id removes it), credentials only when typed. */
function bodyOf(draft: Draft, data: ConversionSettings["google"]): GoogleConversionSettingsInput {
  const body: GoogleConversionSettingsInput = {};
  if (draft.enabled !== undefined) body.enabled = draft.enabled;
  if (draft.customerId !== undefined && draft.customerId.trim() !== (data.customerId ?? ""))
    body.customerId = draft.customerId.trim() || null;
  const actions: NonNullable<GoogleConversionSettingsInput["conversionActions"]> = {};
  for (const { event } of ACTIONS) {
    const typed = draft.actions[event];
    if (typed !== undefined && typed.trim() !== (data.conversionActions[event] ?? ""))
      actions[event] = typed.trim() || null;
  }
  if (Object.keys(actions).length > 0) body.conversionActions = actions;
  const kind = draft.kind ?? data.credentialsKind ?? "serviceAccount";
  if (kind === "serviceAccount" && draft.serviceAccountKey.trim())
    body.credentials = { serviceAccountKey: draft.serviceAccountKey.trim() };
  if (
    kind === "oauthClient" &&
    (draft.clientId.trim() || draft.clientSecret.trim() || draft.refreshToken.trim())
  )
    body.credentials = {
      clientId: draft.clientId.trim(),
      clientSecret: draft.clientSecret.trim(),
      refreshToken: draft.refreshToken.trim(),
    };
  return body;
}

/**
 * Google's card beside "Conversies via de server": the Google Ads account (customer id), a
 * conversion action per event, and a service account's JSON key or an OAuth client. Stored
 * credentials are never shown (the server answers only that they are set, and which kind).
 */
export function GoogleConversionsCard() {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  const settings = useQuery({ queryKey: ADMIN_KEYS.conversionSettings, queryFn: fetchConversionSettings });
  const store = (answer: ConversionSettings) =>
    queryClient.setQueryData(ADMIN_KEYS.conversionSettings, answer);
  // Only what was changed is sent (bodyOf); the draft ends once stored.
  const form = useForm({
    initial: EMPTY,
    submit: (draft) => updateConversionSettings({ google: bodyOf(draft, settings.data!.google) }),
    onSuccess: (answer) => {
      store(answer);
      notify({ title: "Google Opgeslagen", description: "De instellingen voor Google zijn bijgewerkt." });
    },
    failure: SAVE_FAILED,
  });
  const draft = form.values;
  const errors = form.errors;
  const remove = useMutation({
    mutationFn: () => updateConversionSettings({ google: { enabled: false, credentials: null } }),
    onSuccess: (answer) => {
      store(answer);
      form.cancel();
      notify({
        title: "Inloggegevens Verwijderd",
        description: "De inloggegevens van Google zijn verwijderd; conversies naar Google staan uit.",
      });
    },
    onError: (failure) => {
      form.setErrors(fieldErrors(failure));
      notifyError(SAVE_FAILED.title, failure, SAVE_FAILED.fallback);
    },
  });
  if (settings.isPending) return <LoadingText />;
  if (settings.isError)
    return (
      <LoadFailed title="Google" query={settings} fallback="Kon de instellingen voor Google niet laden" />
    );
  const data = settings.data.google;
  const kind = draft.kind ?? data.credentialsKind ?? "serviceAccount";
  const set = form.change;
  const fieldError = (path: string) =>
    errors[`google.${path}`] ? (
      <p role="alert" className="mt-1 text-sm font-medium text-red-700">
        {errors[`google.${path}`]}
      </p>
    ) : null;
  const text = (id: string, label: string, value: string, onChange: (v: string) => void, extra = {}) => (
    <div>
      <label htmlFor={id} className="mt-3 block text-sm font-medium text-gray-800">
        {label}
      </label>
      <input
        id={id}
        className={inputClass("admin")}
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        {...extra}
      />
    </div>
  );
  const busy = form.pending || remove.isPending;
  return (
    <Panel title="Google (conversies via de server)">
      <p className="mb-4 text-sm text-gray-700">
        Google krijgt de aanvragen, offertes en getekende contracten via de Data Manager API, met de klik-ID
        als die er is en anders het e-mailadres en telefoonnummer als hash. Maak in Google Ads per gebeurtenis
        een conversieactie van het type &ldquo;Importeren uit klikken&rdquo; en vul hier haar ID in.
      </p>
      <SaveForm onSave={() => void form.submit()}>
        <fieldset className="rounded-card border border-gray-200 p-4" data-testid="conversies-google">
          <legend className="px-1 font-semibold text-gray-900">Google</legend>
          <div className="mb-2 flex flex-wrap gap-2">
            <Badge tone={data.credentialsSet ? "green" : "gray"}>
              {data.credentialsSet
                ? data.credentialsKind === "oauthClient"
                  ? "OAuth-client opgeslagen"
                  : "Serviceaccount opgeslagen"
                : "Geen inloggegevens"}
            </Badge>
            {!data.customerId && <Badge tone="yellow">Geen klant-ID</Badge>}
          </div>
          <label className="flex items-center gap-2 text-sm text-gray-800">
            <input
              id="conversies-google-aan"
              type="checkbox"
              checked={draft.enabled ?? data.enabled}
              onChange={(event) => set({ enabled: event.target.checked })}
            />
            Conversies versturen
          </label>
          {fieldError("enabled")}
          {text(
            "conversies-google-klant",
            "Klant-ID van Google Ads",
            draft.customerId ?? data.customerId ?? "",
            (v) => set({ customerId: v }),
            { placeholder: "123-456-7890", inputMode: "numeric" },
          )}
          {fieldError("customerId")}
          <div className="grid gap-x-4 md:grid-cols-3">
            {ACTIONS.map(({ event, label }) => (
              <div key={event}>
                {text(
                  `conversies-google-actie-${event}`,
                  `Conversieactie: ${label}`,
                  draft.actions[event] ?? data.conversionActions[event] ?? "",
                  (v) => set({ actions: { ...draft.actions, [event]: v } }),
                  { inputMode: "numeric" },
                )}
                {fieldError(`conversionActions.${event}`)}
              </div>
            ))}
          </div>
          <fieldset className="mt-4">
            <legend className="text-sm font-medium text-gray-800">Inloggegevens</legend>
            <div className="mt-1 flex flex-wrap gap-4 text-sm text-gray-800">
              {(
                [
                  ["serviceAccount", "Serviceaccount (JSON-sleutel)"],
                  ["oauthClient", "OAuth-client"],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="flex items-center gap-2">
                  <input
                    type="radio"
                    name="google-inlog"
                    value={value}
                    checked={kind === value}
                    onChange={() => set({ kind: value })}
                  />
                  {label}
                </label>
              ))}
            </div>
            {kind === "serviceAccount" ? (
              <div>
                <label
                  htmlFor="conversies-google-sleutel"
                  className="mt-3 block text-sm font-medium text-gray-800"
                >
                  JSON-sleutelbestand (de hele tekst)
                </label>
                <textarea
                  id="conversies-google-sleutel"
                  rows={4}
                  spellCheck={false}
                  autoComplete="off"
                  className={`${inputClass("admin")} font-mono text-xs`}
                  maxLength={10_000}
                  value={draft.serviceAccountKey}
                  onChange={(event) => set({ serviceAccountKey: event.target.value })}
                />
              </div>
            ) : (
              <div className="grid gap-x-4 md:grid-cols-3">
                {text("conversies-google-client", "Client-ID", draft.clientId, (v) => set({ clientId: v }))}
                {text(
                  "conversies-google-geheim",
                  "Clientgeheim",
                  draft.clientSecret,
                  (v) => set({ clientSecret: v }),
                  {
                    type: "password",
                  },
                )}
                {text(
                  "conversies-google-vernieuw",
                  "Vernieuwingstoken",
                  draft.refreshToken,
                  (v) => set({ refreshToken: v }),
                  { type: "password" },
                )}
              </div>
            )}
            {fieldError("credentials")}
            {Object.entries(errors)
              .filter(([path]) => path.startsWith("google.credentials."))
              .map(([path, message]) => (
                <p key={path} role="alert" className="mt-1 text-sm font-medium text-red-700">
                  {message}
                </p>
              ))}
            {data.credentialsSet && (
              <>
                <p className="mt-1 text-xs text-gray-600">
                  Opgeslagen. Vul nieuwe inloggegevens in om ze te vervangen.
                </p>
                <Button
                  variant="secondary"
                  className="mt-2"
                  disabled={busy}
                  onClick={() => {
                    if (window.confirm(REMOVE_QUESTION)) remove.mutate();
                  }}
                >
                  Inloggegevens verwijderen
                </Button>
              </>
            )}
          </fieldset>
          <ConversionTestButton platform="google" name="Google" />
        </fieldset>
        <Button type="submit" disabled={busy}>
          Google Opslaan
        </Button>
      </SaveForm>
    </Panel>
  );
}
