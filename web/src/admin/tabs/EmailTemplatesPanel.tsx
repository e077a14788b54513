import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { TEMPLATE_PLACEHOLDERS, type EmailTemplate } from "@lease/contracts";
import { useNotice } from "../../components/notice";
import { deleteEmailTemplate, fetchEmailTemplates, saveEmailTemplate } from "../api";
import { Badge, Button, Field, inputClass, LoadFailed, LoadingText, Panel } from "../../components/ui";
import { useForm } from "../../lib/use-form";

export const TEMPLATES_KEY = ["/api/admin/email-templates"];
type Draft = { id?: string; name: string; subject: string; body: string };
const EMPTY: Draft = { name: "", subject: "", body: "" };

/** E-mail Instellingen' templates: staff keep them here, the compose window offers them. */
export function EmailTemplatesPanel() {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  const templates = useQuery({ queryKey: TEMPLATES_KEY, queryFn: fetchEmailTemplates, staleTime: 0 });
  const reload = () => void queryClient.invalidateQueries({ queryKey: TEMPLATES_KEY });
  // Not editing until "Nieuw sjabloon" (from EMPTY) or a template's "Bewerken" (from its text).
  const form = useForm({
    initial: EMPTY,
    submit: saveEmailTemplate,
    onSuccess: (saved) => {
      notify({ title: "Sjabloon Opgeslagen", description: `"${saved.name}" is opgeslagen.` });
      reload();
    },
  });
  const draft = form.editing ? form.values : null;
  const errors = form.errors;
  const remove = useMutation({
    mutationFn: deleteEmailTemplate,
    onSuccess: () => {
      notify({ title: "Sjabloon Verwijderd", description: "Het sjabloon is verwijderd." });
      reload();
    },
    onError: (error) => notifyError("Fout bij Verwijderen", error, "Er is een fout opgetreden"),
  });

  if (templates.isPending) return <LoadingText />;
  if (templates.isError)
    return <LoadFailed title="E-mailsjablonen" query={templates} fallback="Kon de sjablonen niet laden" />;
  const edit = (t: EmailTemplate) =>
    form.change({ id: t.id, name: t.name, subject: t.subject, body: t.body });
  const dirty = (d: Draft) => {
    const saved = templates.data.find((t) => t.id === d.id);
    return saved
      ? saved.name !== d.name || saved.subject !== d.subject || saved.body !== d.body
      : d !== EMPTY;
  };

  return (
    <Panel
      title="E-mailsjablonen"
      actions={
        !draft && (
          <Button variant="secondary" onClick={form.edit}>
            Nieuw sjabloon
          </Button>
        )
      }
    >
      <ul className="space-y-2" data-testid="email-templates">
        {templates.data.map((t) => (
          <li
            key={t.id}
            className="flex flex-wrap items-center justify-between gap-2 rounded-card border border-gray-200 p-3"
          >
            <span className="flex flex-wrap items-center gap-2 font-medium text-gray-900">
              {t.name}
              {t.isDefault && <Badge tone="blue">Standaard follow-up</Badge>}
            </span>
            <span className="flex gap-2">
              <Button variant="secondary" onClick={() => edit(t)} disabled={Boolean(draft)}>
                Bewerken
              </Button>
              {!t.isDefault && (
                <Button
                  variant="danger"
                  disabled={remove.isPending}
                  onClick={() => {
                    if (window.confirm(`Sjabloon "${t.name}" verwijderen? De tekst gaat verloren.`))
                      remove.mutate(t.id);
                  }}
                >
                  Verwijderen
                </Button>
              )}
            </span>
          </li>
        ))}
      </ul>
      {draft && (
        <form
          className="mt-4 space-y-3"
          data-testid="email-template-form"
          noValidate
          onSubmit={form.onSubmit}
        >
          <Field look="admin" id="template-name" label="Naam" error={errors.name}>
            <input
              id="template-name"
              className={inputClass("admin")}
              value={draft.name}
              onChange={(e) => form.set("name", e.target.value)}
            />
          </Field>
          <Field look="admin" id="template-subject" label="Onderwerp" error={errors.subject}>
            <input
              id="template-subject"
              className={inputClass("admin")}
              value={draft.subject}
              onChange={(e) => form.set("subject", e.target.value)}
            />
          </Field>
          <Field
            look="admin"
            id="template-body"
            label="Bericht"
            error={errors.body}
            hint={`Invulvelden: ${Object.entries(TEMPLATE_PLACEHOLDERS)
              .map(([name, what]) => `{{${name}}} (${what})`)
              .join(", ")}.`}
          >
            <textarea
              id="template-body"
              rows={10}
              className={inputClass("admin")}
              value={draft.body}
              onChange={(e) => form.set("body", e.target.value)}
            />
          </Field>
          <div className="flex gap-2">
            <Button type="submit" disabled={form.pending}>
              {form.pending ? "Opslaan..." : "Opslaan"}
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                if (
                  !dirty(draft) ||
                  window.confirm("Uw wijzigingen in dit sjabloon gaan verloren. Annuleren?")
                )
                  form.cancel();
              }}
            >
              Annuleren
            </Button>
          </div>
        </form>
      )}
    </Panel>
  );
}
