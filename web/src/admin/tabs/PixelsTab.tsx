import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminCompanySettings } from "@lease/contracts";
import { COMPANY_SETTINGS_KEY } from "../../api/public";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, fetchCompanySettings, updateCompanySettings } from "../api";
import { Badge, EditActions, Field, inputClass, LoadFailed, LoadingText, Panel } from "../../components/ui";
import { settingsFieldErrors } from "../lib/company-form";
import { useForm } from "../../lib/use-form";
import { ConversionSettingsPanel } from "./ConversionSettingsPanel";
import { GoogleAdsPanel } from "./GoogleAdsPanel";
import { GoogleConversionsCard } from "./GoogleConversionsCard";

// In the order of the "Conversies via de server" cards below (CONVERSION_PLATFORMS).
const PIXELS = [
  { key: "facebookPixelId", name: "Facebook/Meta", placeholder: "123456789012345" },
  { key: "tiktokPixelId", name: "TikTok", placeholder: "C1234567890ABCDEFGH" },
  // Its id is a UUID: written out as a placeholder it was cut off in the card at 1280 and 390 px.
  { key: "snapchatPixelId", name: "Snapchat", placeholder: "36 tekens, met streepjes" },
] as const;
type PixelKey = (typeof PIXELS)[number]["key"];
type PixelDraft = Record<PixelKey, string>;

function pixelDraft(settings: AdminCompanySettings | undefined): PixelDraft {
  return {
    facebookPixelId: settings?.facebookPixelId ?? "",
    snapchatPixelId: settings?.snapchatPixelId ?? "",
    tiktokPixelId: settings?.tiktokPixelId ?? "",
  };
}

/** A pixel counts as active when its id is non-empty. */
export const isPixelActive = (id: string) => id.trim().length > 0;

export function PixelsTab() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const settings = useQuery({ queryKey: ADMIN_KEYS.companySettings, queryFn: fetchCompanySettings });
  const form = useForm({
    initial: pixelDraft(settings.data),
    recheck: settingsFieldErrors,
    submit: (values: PixelDraft) =>
      updateCompanySettings({
        facebookPixelId: values.facebookPixelId.trim(),
        snapchatPixelId: values.snapchatPixelId.trim(),
        tiktokPixelId: values.tiktokPixelId.trim(),
      }),
    onSuccess: (stored) => {
      queryClient.setQueryData(ADMIN_KEYS.companySettings, stored);
      void queryClient.invalidateQueries({ queryKey: COMPANY_SETTINGS_KEY });
      // The conversion cards say whether each platform has its pixel id.
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.conversionSettings });
      notify({ title: "Pixels Opgeslagen", description: "De social media pixels zijn bijgewerkt." });
    },
  });

  if (settings.isPending) return <LoadingText />;
  if (settings.isError)
    return (
      <LoadFailed
        title="Social Media Pixels"
        query={settings}
        fallback="Kon de pixel instellingen niet laden"
      />
    );

  const { values: shown, editing, errors } = form;
  return (
    <div className="space-y-6">
      <Panel title="Social Media Pixels" actions={<EditActions form={form} />}>
        <div className="grid gap-4 md:grid-cols-3">
          {PIXELS.map((pixel) => (
            <div
              key={pixel.key}
              className="rounded-card border border-gray-200 p-4"
              data-testid={`pixel-${pixel.key}`}
            >
              <div className="mb-3 flex items-center justify-between gap-2">
                <h3 className="font-semibold text-gray-900">{pixel.name}</h3>
                <Badge tone={isPixelActive(shown[pixel.key]) ? "green" : "gray"}>
                  {isPixelActive(shown[pixel.key]) ? "Actief" : "Inactief"}
                </Badge>
              </div>
              <Field look="admin" id={`pixel-${pixel.key}-input`} label="Pixel ID" error={errors[pixel.key]}>
                <input
                  id={`pixel-${pixel.key}-input`}
                  className={`${inputClass("admin")} font-mono`}
                  readOnly={!editing}
                  placeholder={pixel.placeholder}
                  value={shown[pixel.key]}
                  aria-invalid={Boolean(errors[pixel.key])}
                  onChange={(event) => form.set(pixel.key, event.target.value)}
                />
              </Field>
            </div>
          ))}
        </div>
      </Panel>
      <div className="rounded-card border border-blue-200 bg-blue-50 p-4 text-sm text-blue-900" role="note">
        <p className="font-semibold">Hoe werken de pixels?</p>
        <p className="mt-1">
          Een pixel wordt alleen op alle pagina&apos;s van de website geladen als er een geldig Pixel ID is
          ingevuld. Bezoekers zien de pixels pas nadat zij toestemming hebben gegeven voor marketing cookies.
        </p>
      </div>
      <ConversionSettingsPanel />
      <GoogleConversionsCard />
      <GoogleAdsPanel />
    </div>
  );
}
