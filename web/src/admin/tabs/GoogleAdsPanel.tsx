import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CONVERSION_EVENTS, type ConversionEvent } from "@lease/contracts";
import { useState } from "react";
import { useNotice } from "../../components/notice";
import {
  Button,
  buttonClass,
  Field,
  inputClass,
  LoadFailed,
  LoadingText,
  Panel,
  SaveForm,
} from "../../components/ui";
import {
  ADMIN_KEYS,
  GOOGLE_ADS_FILE_URL,
  fetchGoogleAdsSettings,
  rotateGoogleAdsFeed,
  updateGoogleAdsSettings,
} from "../api";
import { useForm } from "../../lib/use-form";
import { formatAmsterdamDateTime } from "../lib/format";

const EVENT_LABELS: Record<ConversionEvent, string> = {
  lead: "Conversienaam aanvraag",
  offerte: "Conversienaam offerte",
  getekend: "Conversienaam getekend contract",
};

const ROTATE_QUESTION =
  "Na het maken van een nieuwe link werkt de huidige link niet meer. Vul de nieuwe daarna in Google Ads in. Doorgaan?";

/**
 * "Google Ads": the offline conversion file (Google's click conversions template) to download, the
 * conversion actions' names it uses, and a secret URL for Google Ads' scheduled upload. The URL is
 * shown once, when made; the server keeps only a hash of it.
 */
export function GoogleAdsPanel() {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  const settings = useQuery({ queryKey: ADMIN_KEYS.googleAdsSettings, queryFn: fetchGoogleAdsSettings });
  const [newUrl, setNewUrl] = useState<string | null>(null);
  // Only the names typed in are sent; the others stay as stored.
  const save = useForm({
    initial: {} as Partial<Record<ConversionEvent, string>>,
    submit: (names) => updateGoogleAdsSettings({ conversionNames: names }),
    onSuccess: (stored) => {
      queryClient.setQueryData(ADMIN_KEYS.googleAdsSettings, stored);
      notify({
        title: "Conversienamen Opgeslagen",
        description: "Het bestand voor Google Ads gebruikt de nieuwe namen.",
      });
    },
    failure: { title: "Fout bij Opslaan", fallback: "Kon de conversienamen niet opslaan" },
  });
  const names = save.values;
  const rotate = useMutation({
    mutationFn: rotateGoogleAdsFeed,
    onSuccess: ({ path }) => {
      setNewUrl(`${window.location.origin}${path}`);
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.googleAdsSettings });
    },
    onError: (failure) => notifyError("Fout bij Maken Link", failure, "Kon geen nieuwe link maken"),
  });

  /** The clipboard is there on HTTPS (and localhost) only; elsewhere the field is selected to copy by hand. */
  const copy = (url: string) => {
    const failed = () =>
      notify({
        title: "Kopiëren Lukt Niet",
        description: "Selecteer de link en kopieer hem zelf.",
        variant: "destructive",
      });
    if (!navigator.clipboard) return failed();
    navigator.clipboard
      .writeText(url)
      .then(() => notify({ title: "Gekopieerd", description: "De link staat op het klembord." }), failed);
  };

  if (settings.isPending) return <LoadingText />;
  if (settings.isError)
    return (
      <LoadFailed
        title="Google Ads"
        query={settings}
        fallback="Kon de instellingen voor Google Ads niet laden"
      />
    );
  const data = settings.data;
  const errors = save.errors;
  return (
    <Panel
      title="Google Ads"
      actions={
        <a className={buttonClass("secondary", "", "small")} href={GOOGLE_ADS_FILE_URL} download>
          Conversiebestand downloaden (CSV)
        </a>
      }
    >
      <p className="mb-4 text-sm text-gray-700">
        Google Ads leest conversies uit een bestand: aanvragen, offertes en getekende contracten (met de
        commissie als waarde) van bezoekers die via een Google-advertentie kwamen en toestemming gaven voor
        marketingcookies, van de laatste {data.importWindowDays} dagen. Alleen de klik-id, de conversienaam en
        het tijdstip gaan mee; geen e-mailadres of telefoonnummer.
      </p>
      <SaveForm onSave={() => void save.submit()}>
        <div className="grid gap-4 md:grid-cols-3">
          {CONVERSION_EVENTS.map((event) => (
            <Field
              look="admin"
              key={event}
              id={`google-ads-${event}`}
              label={EVENT_LABELS[event]}
              error={errors[`conversionNames.${event}`]}
            >
              <input
                id={`google-ads-${event}`}
                className={inputClass("admin")}
                value={names[event] ?? data.conversionNames[event]}
                aria-invalid={Boolean(errors[`conversionNames.${event}`])}
                aria-describedby="google-ads-namen-uitleg"
                onChange={(change) => save.set(event, change.target.value)}
              />
            </Field>
          ))}
        </div>
        <p id="google-ads-namen-uitleg" className="text-xs text-gray-600">
          Gebruik precies de namen van de conversieacties in Google Ads (bron: importeren uit klikken).
        </p>
        <Button type="submit" disabled={save.pending}>
          Namen Opslaan
        </Button>
      </SaveForm>

      <div className="mt-6 border-t border-gray-200 pt-4">
        <h3 className="font-semibold text-gray-900">Geplande upload</h3>
        <p className="mt-1 text-sm text-gray-700" data-testid="google-ads-link-status">
          {data.feedUrlSet
            ? `Er is een geheime link, gemaakt op ${formatAmsterdamDateTime(data.feedRotatedAt)}. ${
                data.feedFetchedAt
                  ? `Laatst opgehaald op ${formatAmsterdamDateTime(data.feedFetchedAt)}.`
                  : "Nog niet opgehaald."
              }`
            : "Er is nog geen geheime link. Met een link haalt Google Ads het bestand zelf op, bijvoorbeeld dagelijks."}
        </p>
        {newUrl && (
          <div
            className="mt-3 rounded-card border border-green-300 bg-green-50 p-4 text-sm text-green-900"
            role="status"
            data-testid="google-ads-nieuwe-link"
          >
            <label htmlFor="google-ads-link" className="font-semibold">
              Nieuwe geheime link
            </label>
            <input
              id="google-ads-link"
              readOnly
              className={`${inputClass("admin")} font-mono text-xs`}
              value={newUrl}
              onFocus={(event) => event.target.select()}
            />
            <p className="mt-2">
              Deze link wordt maar één keer getoond. Vul hem in Google Ads in bij Conversies, Uploads,
              Planning (HTTPS, zonder gebruikersnaam en wachtwoord). Wie de link heeft, kan het bestand
              ophalen.
            </p>
            <div className="mt-3 flex flex-wrap gap-2">
              <Button variant="secondary" onClick={() => copy(newUrl)}>
                Link kopiëren
              </Button>
              <Button variant="secondary" onClick={() => setNewUrl(null)}>
                Sluiten
              </Button>
            </div>
          </div>
        )}
        <Button
          className="mt-3"
          variant={data.feedUrlSet ? "secondary" : "primary"}
          disabled={rotate.isPending}
          onClick={() => {
            if (!data.feedUrlSet || window.confirm(ROTATE_QUESTION)) rotate.mutate();
          }}
        >
          {data.feedUrlSet ? "Nieuwe geheime link maken" : "Geheime link maken"}
        </Button>
      </div>
    </Panel>
  );
}
