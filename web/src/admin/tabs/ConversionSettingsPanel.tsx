import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  TOKEN_PLATFORMS,
  type TokenPlatform,
  type ConversionSettings,
  type UpdateConversionSettingsBody,
} from "@lease/contracts";
import { fieldErrors } from "../../api/client";
import { useNotice } from "../../components/notice";
import {
  Badge,
  Button,
  FieldError,
  fieldAria,
  inputClass,
  LoadFailed,
  LoadingText,
  Panel,
  SaveForm,
} from "../../components/ui";
import { ADMIN_KEYS, fetchConversionSettings, updateConversionSettings } from "../api";
import { useForm } from "../../lib/use-form";
import { ConversionTestButton } from "./ConversionTestButton";

export const PLATFORM_NAMES: Record<TokenPlatform, string> = {
  meta: "Facebook/Meta",
  tiktok: "TikTok",
  snapchat: "Snapchat",
};

type Errors = Partial<Record<TokenPlatform, string>>;
type Draft = {
  enabled: Partial<Record<TokenPlatform, boolean>>;
  tokens: Partial<Record<TokenPlatform, string>>;
};
const SAVE_FAILED = { title: "Fout bij Opslaan", fallback: "Kon de conversie-instellingen niet opslaan" };

/** The server's message about a platform's switch or token, shown at that platform. */
function platformErrors(failure: unknown): Errors {
  const fields = fieldErrors(failure);
  return Object.fromEntries(
    TOKEN_PLATFORMS.flatMap((p) => {
      const message = fields[`${p}.enabled`] ?? fields[`${p}.accessToken`];
      return message ? [[p, message]] : [];
    }),
  );
}

const withoutPlatform = (errors: Errors, p: TokenPlatform): Errors => {
  const { [p]: _, ...rest } = errors;
  return rest;
};

/** What a platform switched on would lack: the server refuses it too. */
export function unsendable(
  data: ConversionSettings,
  enabled: Partial<Record<TokenPlatform, boolean>>,
  tokens: Partial<Record<TokenPlatform, string>>,
): Errors {
  const errors: Errors = {};
  for (const p of TOKEN_PLATFORMS) {
    if (!(enabled[p] ?? data[p].enabled) || (enabled[p] === undefined && !tokens[p]?.trim())) continue;
    const missing = [
      data[p].pixelIdSet ? null : "een Pixel ID (bij Social Media Pixels)",
      data[p].tokenSet || tokens[p]?.trim() ? null : "een toegangstoken",
    ].filter(Boolean);
    if (missing.length > 0)
      errors[p] =
        `${PLATFORM_NAMES[p]}: conversies kunnen pas aan met ${missing.join(" en ")}; zonder wordt er niets verstuurd`;
  }
  return errors;
}

const removeQuestion = (p: TokenPlatform) =>
  `Het opgeslagen toegangstoken van ${PLATFORM_NAMES[p]} verwijderen? Het token is daarna weg (het staat ` +
  `nergens anders opgeslagen) en conversies naar ${PLATFORM_NAMES[p]} gaan uit tot u een nieuw token invult.`;

/**
 * "Conversies via de server": per platform a switch and its Conversions API access token. A stored
 * token is never shown (the server answers only that one is set); typing one replaces it, and
 * "Token verwijderen" removes it (switching the platform off).
 */
export function ConversionSettingsPanel() {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  const settings = useQuery({ queryKey: ADMIN_KEYS.conversionSettings, queryFn: fetchConversionSettings });
  const stored = (answer: ConversionSettings) =>
    queryClient.setQueryData(ADMIN_KEYS.conversionSettings, answer);
  // The switches changed and the tokens typed in; what is not changed is not sent.
  const form = useForm({
    initial: { enabled: {}, tokens: {} } as Draft,
    validate: ({ enabled, tokens }) => (settings.data ? unsendable(settings.data, enabled, tokens) : {}),
    onInvalid: (refused) => document.getElementById(`conversies-${Object.keys(refused)[0]}-aan`)?.focus(),
    submit: ({ enabled, tokens }) => {
      const body: UpdateConversionSettingsBody = {};
      for (const p of TOKEN_PLATFORMS) {
        const token = tokens[p]?.trim();
        if (enabled[p] !== undefined || token)
          body[p] = {
            ...(enabled[p] !== undefined ? { enabled: enabled[p] } : {}),
            ...(token ? { accessToken: token } : {}),
          };
      }
      return updateConversionSettings(body);
    },
    onSuccess: (answer) => {
      stored(answer);
      notify({
        title: "Conversies Opgeslagen",
        description: "De instellingen voor de advertentieplatforms zijn bijgewerkt.",
      });
    },
    serverErrors: platformErrors,
    failure: SAVE_FAILED,
  });
  const { enabled, tokens } = form.values;
  const errors: Errors = form.errors;
  const remove = useMutation({
    mutationFn: (p: TokenPlatform) =>
      updateConversionSettings({ [p]: { enabled: false, accessToken: null } }),
    onSuccess: (answer, p) => {
      stored(answer);
      const { [p]: _, ...rest } = enabled;
      form.change({ enabled: rest });
      form.setErrors(withoutPlatform(errors, p));
      notify({
        title: "Token Verwijderd",
        description: `Het toegangstoken van ${PLATFORM_NAMES[p]} is verwijderd; conversies naar ${PLATFORM_NAMES[p]} staan uit.`,
      });
    },
    onError: (failure) => {
      form.setErrors(platformErrors(failure));
      notifyError(SAVE_FAILED.title, failure, SAVE_FAILED.fallback);
    },
  });
  if (settings.isPending) return <LoadingText />;
  if (settings.isError)
    return (
      <LoadFailed
        title="Conversies via de server"
        query={settings}
        fallback="Kon de conversie-instellingen niet laden"
      />
    );
  const data = settings.data;
  return (
    <Panel title="Conversies via de server">
      <p className="mb-4 text-sm text-gray-700">
        Aanvragen, offertes en getekende contracten van bezoekers met toestemming voor marketingcookies worden
        door de server aan het platform gemeld (met het e-mailadres en telefoonnummer alleen als hash). Een
        platform kan pas aan met zijn Pixel ID en een toegangstoken.
      </p>
      <SaveForm onSave={() => void form.submit()}>
        <div className="grid gap-4 md:grid-cols-3">
          {TOKEN_PLATFORMS.map((p) => {
            const on = enabled[p] ?? data[p].enabled;
            const error = errors[p];
            return (
              <fieldset
                key={p}
                className="rounded-card border border-gray-200 p-4"
                data-testid={`conversies-${p}`}
              >
                <legend className="px-1 font-semibold text-gray-900">{PLATFORM_NAMES[p]}</legend>
                <div className="mb-2 flex flex-wrap gap-2">
                  <Badge tone={data[p].tokenSet ? "green" : "gray"}>
                    {data[p].tokenSet ? "Token opgeslagen" : "Geen token"}
                  </Badge>
                  {!data[p].pixelIdSet && <Badge tone="yellow">Geen Pixel ID</Badge>}
                </div>
                <label className="flex items-center gap-2 text-sm text-gray-800">
                  <input
                    id={`conversies-${p}-aan`}
                    type="checkbox"
                    checked={on}
                    {...fieldAria(`conversies-${p}`, { error })}
                    onChange={(event) => {
                      form.change({ enabled: { ...enabled, [p]: event.target.checked } });
                      if (!event.target.checked) form.setErrors(withoutPlatform(errors, p));
                    }}
                  />
                  Conversies versturen
                </label>
                <FieldError id={`conversies-${p}`} error={error} />
                <label
                  htmlFor={`conversies-${p}-token`}
                  className="mt-3 block text-sm font-medium text-gray-800"
                >
                  Toegangstoken
                </label>
                <input
                  id={`conversies-${p}-token`}
                  type="password"
                  autoComplete="off"
                  className={`${inputClass("admin")} font-mono`}
                  aria-describedby={data[p].tokenSet ? `conversies-${p}-token-uitleg` : undefined}
                  value={tokens[p] ?? ""}
                  onChange={(event) => form.change({ tokens: { ...tokens, [p]: event.target.value } })}
                />
                {/* A line of its own: as a placeholder it was cut off in the narrow cards. */}
                {data[p].tokenSet && (
                  <>
                    <p id={`conversies-${p}-token-uitleg`} className="mt-1 text-xs text-gray-600">
                      Opgeslagen. Typ een nieuw token om het te vervangen.
                    </p>
                    <Button
                      variant="secondary"
                      className="mt-2"
                      disabled={remove.isPending || form.pending}
                      onClick={() => {
                        if (window.confirm(removeQuestion(p))) remove.mutate(p);
                      }}
                    >
                      Token verwijderen
                    </Button>
                  </>
                )}
                <ConversionTestButton platform={p} name={PLATFORM_NAMES[p]} />
              </fieldset>
            );
          })}
        </div>
        <Button type="submit" disabled={form.pending || remove.isPending}>
          Conversies Opslaan
        </Button>
      </SaveForm>
    </Panel>
  );
}
