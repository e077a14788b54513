import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  CONVERSION_PLATFORMS,
  type ConversionPlatform,
  type UpdateConversionSettingsBody,
} from "@lease/contracts";
import { useState } from "react";
import { userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { Badge, Button, LoadFailed, LoadingText, Panel, SaveForm, TEXT_INPUT } from "../../components/ui";
import { ADMIN_KEYS, fetchConversionSettings, updateConversionSettings } from "../api";

const NAMES: Record<ConversionPlatform, string> = {
  meta: "Facebook/Meta",
  tiktok: "TikTok",
  snapchat: "Snapchat",
};

/**
 * "Conversies via de server": per platform a switch and its Conversions API access token. A stored
 * token is never shown (the server answers only that one is set); typing one replaces it.
 */
export function ConversionSettingsPanel() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const settings = useQuery({ queryKey: ADMIN_KEYS.conversionSettings, queryFn: fetchConversionSettings });
  const [enabled, setEnabled] = useState<Partial<Record<ConversionPlatform, boolean>>>({});
  const [tokens, setTokens] = useState<Partial<Record<ConversionPlatform, string>>>({});
  const save = useMutation({
    mutationFn: () => {
      const body: UpdateConversionSettingsBody = {};
      for (const p of CONVERSION_PLATFORMS) {
        const token = tokens[p]?.trim();
        if (enabled[p] !== undefined || token)
          body[p] = {
            ...(enabled[p] !== undefined ? { enabled: enabled[p] } : {}),
            ...(token ? { accessToken: token } : {}),
          };
      }
      return updateConversionSettings(body);
    },
    onSuccess: (stored) => {
      queryClient.setQueryData(ADMIN_KEYS.conversionSettings, stored);
      setEnabled({});
      setTokens({});
      notify({
        title: "Conversies Opgeslagen",
        description: "De instellingen voor de advertentieplatforms zijn bijgewerkt.",
      });
    },
    onError: (failure) =>
      notify({
        title: "Fout bij Opslaan",
        description: userErrorMessage(failure, "Kon de conversie-instellingen niet opslaan"),
        variant: "destructive",
      }),
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
        door de server aan het platform gemeld (met het e-mailadres en telefoonnummer alleen als hash).
      </p>
      <SaveForm onSave={() => save.mutate()}>
        <div className="grid gap-4 md:grid-cols-3">
          {CONVERSION_PLATFORMS.map((p) => {
            const on = enabled[p] ?? data[p].enabled;
            return (
              <fieldset
                key={p}
                className="rounded-card border border-gray-200 p-4"
                data-testid={`conversies-${p}`}
              >
                <legend className="px-1 font-semibold text-gray-900">{NAMES[p]}</legend>
                <div className="mb-2 flex flex-wrap gap-2">
                  <Badge tone={data[p].tokenSet ? "green" : "gray"}>
                    {data[p].tokenSet ? "Token opgeslagen" : "Geen token"}
                  </Badge>
                  {!data[p].pixelIdSet && <Badge tone="yellow">Geen Pixel ID</Badge>}
                </div>
                <label className="flex items-center gap-2 text-sm text-gray-800">
                  <input
                    type="checkbox"
                    checked={on}
                    onChange={(event) => setEnabled((current) => ({ ...current, [p]: event.target.checked }))}
                  />
                  Conversies versturen
                </label>
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
                  className={`${TEXT_INPUT} font-mono`}
                  aria-describedby={data[p].tokenSet ? `conversies-${p}-token-uitleg` : undefined}
                  value={tokens[p] ?? ""}
                  onChange={(event) => setTokens((current) => ({ ...current, [p]: event.target.value }))}
                />
                {/* A line of its own: as a placeholder it was cut off in the narrow cards. */}
                {data[p].tokenSet && (
                  <p id={`conversies-${p}-token-uitleg`} className="mt-1 text-xs text-gray-600">
                    Opgeslagen. Typ een nieuw token om het te vervangen.
                  </p>
                )}
              </fieldset>
            );
          })}
        </div>
        <Button type="submit" disabled={save.isPending}>
          Conversies Opslaan
        </Button>
      </SaveForm>
    </Panel>
  );
}
