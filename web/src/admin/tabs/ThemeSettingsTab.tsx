import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  BUTTON_RADIUS_OPTIONS,
  CARD_RADIUS_OPTIONS,
  THEME_DEFAULTS,
  THEME_FIELDS,
  THEME_PRESETS,
  type ThemeColors,
  type ThemeSettings,
  type ThemeValues,
} from "@lease/contracts";
import { useEffect, useRef, useState } from "react";
import { THEME_SETTINGS_KEY } from "../../api/public";
import { useNotice } from "../../components/notice";
import { applyTheme, themeToCssVariables } from "../../lib/theme";
import { fetchTheme, updateTheme } from "../api";
import {
  Button,
  EditActions,
  Field,
  fieldAria,
  inputClass,
  LoadFailed,
  LoadingText,
  Panel,
  Select,
} from "../../components/ui";
import { contrastWarning } from "../lib/theme-contrast";
import { useForm } from "../../lib/use-form";

const COLOR_FIELDS: { key: keyof ThemeValues; label: string }[] = [
  { key: "primaryColor", label: "Primaire kleur" },
  { key: "primaryHover", label: "Primaire kleur (hover)" },
  { key: "accentColor", label: "Accentkleur" },
  { key: "backgroundGradientStart", label: "Achtergrondverloop begin" },
  { key: "backgroundGradientEnd", label: "Achtergrondverloop eind" },
  { key: "textPrimary", label: "Tekstkleur primair" },
  { key: "textSecondary", label: "Tekstkleur secundair" },
];

const HEX = /^#[0-9A-Fa-f]{6}$/;
const RESET_QUESTION =
  "Het standaard theme invullen? Je eigen kleuren en afrondingen gaan verloren zodra je opslaat.";

function themeValues(theme: Partial<ThemeSettings> | undefined): ThemeValues {
  const values = { ...THEME_DEFAULTS } as ThemeValues;
  for (const key of THEME_FIELDS) {
    const value = theme?.[key];
    if (typeof value === "string") (values as Record<string, string>)[key] = value;
  }
  return values;
}

export function ThemeSettingsTab() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  // Shares the public theme cache, so saving here re-themes the whole site at once.
  const theme = useQuery({ queryKey: THEME_SETTINGS_KEY, queryFn: fetchTheme, staleTime: 0 });
  const stored = themeValues(theme.data);
  const [previewing, setPreviewing] = useState(false);
  // "Standaard herstellen" fills in the defaults; Save stores them, Cancel keeps the stored theme.
  const [resetting, setResetting] = useState(false);
  const form = useForm({
    initial: stored,
    submit: updateTheme,
    onSuccess: (saved) => {
      queryClient.setQueryData(THEME_SETTINGS_KEY, saved);
      void queryClient.invalidateQueries({ queryKey: THEME_SETTINGS_KEY });
      applyTheme(saved);
      setPreviewing(false);
      setResetting(false);
      notify({
        title: "Theme Opgeslagen",
        description: THEME_FIELDS.every((key) => saved[key] === THEME_DEFAULTS[key])
          ? "Het standaard theme is hersteld."
          : "Het theme is toegepast op de website.",
      });
    },
  });

  // Leaving the tab while previewing puts the stored theme back.
  const storedRef = useRef(stored);
  useEffect(() => {
    storedRef.current = stored;
  });
  useEffect(() => () => applyTheme(storedRef.current), []);

  if (theme.isPending) return <LoadingText />;
  // Without the stored theme the editor would show (and a save would store) the defaults.
  if (!theme.data) {
    return <LoadFailed title="Theme Instellingen" query={theme} fallback="Kon het theme niet laden" />;
  }

  const { values: shown, editing, errors } = form;
  const set = (key: keyof ThemeValues, value: string) => form.set(key, value);
  const busy = form.pending;
  const cancel = () => {
    applyTheme(stored);
    form.cancel();
    setPreviewing(false);
    setResetting(false);
  };
  const resetToDefaults = () => {
    if (!window.confirm(RESET_QUESTION)) return;
    form.change({ ...THEME_DEFAULTS });
    setResetting(true);
    if (previewing) applyTheme(THEME_DEFAULTS);
  };
  const preview = () => {
    applyTheme(shown);
    setPreviewing(true);
    notify({
      title: "Theme Toegepast",
      description: "De wijzigingen zijn tijdelijk zichtbaar tot je opslaat of annuleert.",
    });
  };

  return (
    <div className="space-y-6">
      <Panel
        title="Theme Instellingen"
        actions={
          <EditActions
            form={form}
            onCancel={cancel}
            between={
              <Button variant="secondary" onClick={preview} disabled={busy}>
                Voorbeeld
              </Button>
            }
            after={
              <Button variant="danger" onClick={resetToDefaults} disabled={busy}>
                Standaard herstellen
              </Button>
            }
          />
        }
      >
        {resetting && (
          <p
            className="mb-4 rounded-card border border-blue-300 bg-blue-50 p-3 text-sm text-blue-900"
            role="status"
          >
            De standaardwaarden zijn ingevuld. Klik op Opslaan om ze te bewaren, of op Annuleren om je eigen
            theme te houden.
          </p>
        )}
        {previewing && (
          <p
            className="mb-4 rounded-card border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900"
            role="status"
          >
            Voorbeeld actief: de wijzigingen zijn alleen tijdelijk zichtbaar. Sla op om ze te bewaren.
          </p>
        )}
        <h3 className="mb-2 text-sm font-semibold text-gray-800">Vooraf ingestelde thema&apos;s</h3>
        <div className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {THEME_PRESETS.map((preset) => {
            const colors = Object.entries(preset.colors) as [keyof ThemeColors, string][];
            const active = colors.every(([key, value]) => shown[key].toUpperCase() === value);
            return (
              <button
                key={preset.name}
                type="button"
                disabled={!editing}
                onClick={() => form.change(preset.colors)}
                className={`rounded-card border p-3 text-left text-sm disabled:cursor-default ${
                  active ? "border-gray-900 ring-2 ring-gray-900/20" : "border-gray-200"
                }`}
              >
                <span className="mb-2 flex gap-1" aria-hidden="true">
                  <span className="h-6 w-6 rounded-full" style={{ background: preset.colors.primaryColor }} />
                  <span className="h-6 w-6 rounded-full" style={{ background: preset.colors.accentColor }} />
                </span>
                {preset.name}
              </button>
            );
          })}
        </div>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {COLOR_FIELDS.map(({ key, label }) => {
            const warning = contrastWarning(key, shown[key]);
            return (
              <Field
                look="admin"
                key={key}
                id={`theme-${key}`}
                label={label}
                error={errors[key]}
                hint={
                  warning && (
                    <span className="font-medium text-yellow-900" data-testid="contrast-warning">
                      {warning.message}
                    </span>
                  )
                }
              >
                <div className="mt-1 flex gap-2">
                  <input
                    type="color"
                    aria-label={`${label} kiezen`}
                    className="h-10 w-12 shrink-0 cursor-pointer rounded border border-gray-300 bg-white disabled:cursor-default"
                    disabled={!editing}
                    value={HEX.test(shown[key]) ? shown[key].toLowerCase() : "#000000"}
                    onChange={(event) => set(key, event.target.value.toUpperCase())}
                  />
                  <input
                    id={`theme-${key}`}
                    className={`${inputClass("admin")} mt-0 font-mono uppercase`}
                    readOnly={!editing}
                    maxLength={7}
                    value={shown[key]}
                    onChange={(event) => set(key, event.target.value)}
                    {...fieldAria(`theme-${key}`, { error: errors[key], hint: Boolean(warning) })}
                  />
                </div>
                {warning && editing && (
                  <Button
                    variant="secondary"
                    className="mt-2"
                    // The visible text first (WCAG 2.5.3), then which field and why this colour.
                    aria-label={`Gebruik ${warning.suggestion} voor ${label}: de dichtstbijzijnde kleur met voldoende contrast`}
                    onClick={() => set(key, warning.suggestion)}
                  >
                    Gebruik {warning.suggestion}
                  </Button>
                )}
              </Field>
            );
          })}
          <RadiusSelect
            id="theme-buttonRadius"
            label="Afronding knoppen"
            value={shown.buttonRadius}
            options={BUTTON_RADIUS_OPTIONS}
            disabled={!editing}
            onChange={(value) => set("buttonRadius", value)}
          />
          <RadiusSelect
            id="theme-cardRadius"
            label="Afronding kaarten"
            value={shown.cardRadius}
            options={CARD_RADIUS_OPTIONS}
            disabled={!editing}
            onChange={(value) => set("cardRadius", value)}
          />
        </div>
      </Panel>
      <Panel title="Live voorbeeld">
        <ThemePreview theme={shown} />
      </Panel>
    </div>
  );
}

function RadiusSelect({
  id,
  label,
  value,
  options,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <Field look="admin" id={id} label={label}>
      <Select
        id={id}
        value={value}
        disabled={disabled}
        onChange={onChange}
        options={options.map((option) => ({
          value: option.value,
          label: `${option.value} - ${option.label}`,
        }))}
      />
    </Field>
  );
}

/** The draft theme on a local copy of the site's variables: hero gradient, buttons and a card. */
function ThemePreview({ theme }: { theme: ThemeValues }) {
  return (
    <div style={themeToCssVariables(theme)} data-testid="theme-preview" className="space-y-4">
      <div className="bg-hero rounded-card p-6 text-white">
        <p className="text-xl font-bold">Zakelijk auto leasen</p>
        <p className="mt-1 text-white/90">Zo ziet de hero sectie eruit.</p>
        <div className="mt-4 flex flex-wrap gap-3">
          <span className="rounded-button bg-primary-strong px-4 py-2 font-semibold text-white">
            Primaire knop
          </span>
          <span className="rounded-button bg-accent-strong px-4 py-2 font-semibold text-white">
            Accent knop
          </span>
        </div>
      </div>
      <div className="rounded-card border border-gray-200 bg-white p-5 shadow-sm">
        <p className="font-semibold text-ink">Voorbeeld kaart</p>
        <p className="mt-1 text-muted">Secundaire tekst in een kaart met de gekozen afronding.</p>
      </div>
    </div>
  );
}
