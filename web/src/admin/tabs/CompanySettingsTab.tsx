import { useQuery, useQueryClient } from "@tanstack/react-query";
import { COMPANY_SETTINGS_KEY } from "../../api/public";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, fetchCompanySettings, updateCompanySettings } from "../api";
import { EditActions, Field, inputClass, LoadFailed, LoadingText, Panel } from "../../components/ui";
import { senderCompanyName } from "../lib/compose-template";
import {
  COMPANY_FIELDS,
  companyDraft,
  companyUpdateBody,
  settingsFieldErrors,
  validateCompany,
  type CompanyDraft,
} from "../lib/company-form";
import { useForm } from "../../lib/use-form";

export function CompanySettingsTab() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const settings = useQuery({ queryKey: ADMIN_KEYS.companySettings, queryFn: fetchCompanySettings });
  const form = useForm({
    initial: companyDraft(settings.data),
    validate: validateCompany,
    recheck: (values) => ({ ...settingsFieldErrors(values), ...validateCompany(values) }),
    submit: (values: CompanyDraft) => updateCompanySettings(companyUpdateBody(values)),
    onSuccess: (stored) => {
      queryClient.setQueryData(ADMIN_KEYS.companySettings, stored);
      void queryClient.invalidateQueries({ queryKey: COMPANY_SETTINGS_KEY });
      notify({
        title: "Instellingen Opgeslagen",
        description: "Bedrijfsgegevens zijn succesvol bijgewerkt.",
      });
    },
  });

  if (settings.isPending) return <LoadingText />;
  if (settings.isError) {
    return (
      <LoadFailed title="Bedrijfsgegevens" query={settings} fallback="Kon de bedrijfsgegevens niet laden" />
    );
  }

  const { values: shown, editing, errors } = form;

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Panel className="lg:col-span-2" title="Bedrijfsgegevens" actions={<EditActions form={form} />}>
        <div className="grid gap-4 sm:grid-cols-2">
          {COMPANY_FIELDS.map(({ key, label }) => (
            <div key={key} className={key === "description" ? "sm:col-span-2" : undefined}>
              <Field look="admin" id={`company-${key}`} label={label} error={errors[key]}>
                {key === "description" ? (
                  <textarea
                    id={`company-${key}`}
                    rows={3}
                    className={inputClass("admin")}
                    readOnly={!editing}
                    value={shown[key]}
                    onChange={(event) => form.set(key, event.target.value)}
                  />
                ) : (
                  <input
                    id={`company-${key}`}
                    className={inputClass("admin")}
                    readOnly={!editing}
                    value={shown[key]}
                    onChange={(event) => form.set(key, event.target.value)}
                  />
                )}
              </Field>
            </div>
          ))}
        </div>
      </Panel>
      <Panel title="Voorbeeld op de website" className="self-start">
        <CompanyPreview draft={shown} />
      </Panel>
    </div>
  );
}

/** How the details appear in the site's footer and contact section. */
function CompanyPreview({ draft }: { draft: CompanyDraft }) {
  const place = [draft.postalCode, draft.city].filter((part) => part.trim()).join(" ");
  return (
    <div className="rounded-card bg-gray-900 p-5 text-sm text-gray-200" data-testid="company-preview">
      <p className="text-lg font-bold text-white">{senderCompanyName({ companyName: draft.companyName })}</p>
      {draft.description && <p className="mt-2 text-gray-300">{draft.description}</p>}
      <ul className="mt-4 space-y-1">
        {draft.address && <li>{draft.address}</li>}
        {place && <li>{place}</li>}
        {draft.phoneNumber && <li>Tel: {draft.phoneNumber}</li>}
        {draft.emailAddress && <li>E-mail: {draft.emailAddress}</li>}
        {draft.website && <li>{draft.website}</li>}
      </ul>
      {(draft.kvkNumber || draft.btwNumber) && (
        <p className="mt-4 text-xs text-gray-400">
          {draft.kvkNumber && `KvK: ${draft.kvkNumber}`}
          {draft.kvkNumber && draft.btwNumber && " · "}
          {draft.btwNumber && `BTW: ${draft.btwNumber}`}
        </p>
      )}
    </div>
  );
}
