import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  UpdateResponseSettingsBody,
  type AssignmentRule,
  type ResponseBasis,
  type ResponseSettingsResponse,
} from "@lease/contracts";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, fetchResponseSettings, updateResponseSettings } from "../api";
import { Button, Field, inputClass, LoadError, LoadingText, Panel, Select } from "../../components/ui";
import { useForm, type FormErrors } from "../../lib/use-form";

const RULES: { value: AssignmentRule; label: string }[] = [
  { value: "round-robin", label: "Om de beurt (round-robin)" },
  { value: "least-open", label: "Minste open aanvragen eerst" },
  { value: "manual", label: "Handmatig (niemand automatisch)" },
];
const BASES: { value: ResponseBasis; label: string }[] = [
  { value: "working", label: "werkuren" },
  { value: "clock", label: "klokuren" },
];
const DAYS = ["ma", "di", "wo", "do", "vr", "za", "zo"];

interface Draft {
  assignment: AssignmentRule;
  quoteHours: string;
  quoteBasis: ResponseBasis;
  contactHours: string;
  contactBasis: ResponseBasis;
  days: number[];
  from: string;
  to: string;
  closedDays: string;
}

const hoursText = (minutes: number) => String(Math.round((minutes / 60) * 100) / 100).replace(".", ",");
const toMinutes = (hours: string) => Math.round(Number(hours.trim().replace(",", ".")) * 60);

function draftOf(saved: ResponseSettingsResponse): Draft {
  return {
    assignment: saved.assignment,
    quoteHours: hoursText(saved.quoteMinutes),
    quoteBasis: saved.quoteBasis,
    contactHours: hoursText(saved.contactMinutes),
    contactBasis: saved.contactBasis,
    days: saved.workingHours.days,
    from: saved.workingHours.from,
    to: saved.workingHours.to,
    closedDays: saved.closedDays.join("\n"),
  };
}

/** The body a draft stands for (the server's own schema checks it first, in Dutch). */
function bodyOf(draft: Draft) {
  return {
    assignment: draft.assignment,
    quoteMinutes: toMinutes(draft.quoteHours),
    quoteBasis: draft.quoteBasis,
    contactMinutes: toMinutes(draft.contactHours),
    contactBasis: draft.contactBasis,
    workingHours: { days: draft.days, from: draft.from, to: draft.to },
    closedDays: draft.closedDays
      .split(/[\s,]+/)
      .map((day) => day.trim())
      .filter(Boolean),
  };
}

/** "Toewijzing en reactietijden": the assignment rule, the promises, working hours and closed days. */
export function ResponseSettingsPanel() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const saved = useQuery({ queryKey: ADMIN_KEYS.responseSettings, queryFn: fetchResponseSettings });
  if (saved.isError && !saved.data)
    return (
      <Panel title="Toewijzing en reactietijden">
        <LoadError query={saved} fallback="De reactietijden konden niet worden geladen." />
      </Panel>
    );
  if (!saved.data)
    return (
      <Panel title="Toewijzing en reactietijden">
        <LoadingText />
      </Panel>
    );
  return (
    <ResponseSettingsForm
      stored={draftOf(saved.data)}
      onSaved={(answer) => {
        queryClient.setQueryData(ADMIN_KEYS.responseSettings, answer);
        notify({ title: "Opgeslagen", description: "Toewijzing en reactietijden zijn bijgewerkt." });
      }}
    />
  );
}

/**
 * The contract's messages for the values, each once (keyed by itself: they show as one list under
 * the form, and stay there until the next save).
 */
function checkDraft(draft: Draft): FormErrors {
  const checked = UpdateResponseSettingsBody.safeParse(bodyOf(draft));
  if (checked.success) return {};
  return Object.fromEntries(checked.error.issues.map((issue) => [issue.message, issue.message]));
}

function ResponseSettingsForm({
  stored,
  onSaved,
}: {
  stored: Draft;
  onSaved: (answer: Awaited<ReturnType<typeof updateResponseSettings>>) => void;
}) {
  const form = useForm({
    initial: stored,
    validate: checkDraft,
    submit: (values) => updateResponseSettings(bodyOf(values)),
    onSuccess: onSaved,
    // The server's refusal is said by the notice only.
    serverErrors: () => ({}),
  });
  const draft = form.values;
  const set = form.change;
  const errors = Object.values(form.errors).filter((message) => message !== undefined);
  return (
    <Panel title="Toewijzing en reactietijden">
      <form onSubmit={form.onSubmit} noValidate className="space-y-5" data-testid="reactietijden">
        <Field look="admin" id="toewijzing" label="Nieuwe aanvragen toewijzen">
          <Select
            id="toewijzing"
            value={draft.assignment}
            onChange={(assignment) => set({ assignment })}
            options={RULES}
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <PromiseField
            id="termijn-offerte"
            label="Reageren op een offerteaanvraag binnen (uren)"
            hours={draft.quoteHours}
            basis={draft.quoteBasis}
            onHours={(quoteHours) => set({ quoteHours })}
            onBasis={(quoteBasis) => set({ quoteBasis })}
          />
          <PromiseField
            id="termijn-bericht"
            label="Reageren op een contactbericht binnen (uren)"
            hours={draft.contactHours}
            basis={draft.contactBasis}
            onHours={(contactHours) => set({ contactHours })}
            onBasis={(contactBasis) => set({ contactBasis })}
          />
        </div>
        <fieldset>
          <legend className="text-sm font-semibold text-gray-800">Werkdagen</legend>
          <div className="mt-1 flex flex-wrap gap-3">
            {DAYS.map((label, index) => (
              <label key={label} className="inline-flex items-center gap-1 text-sm">
                <input
                  type="checkbox"
                  checked={draft.days.includes(index + 1)}
                  onChange={(event) =>
                    set({
                      days: event.target.checked
                        ? [...draft.days, index + 1].sort((a, b) => a - b)
                        : draft.days.filter((day) => day !== index + 1),
                    })
                  }
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field look="admin" id="werktijd-van" label="Werktijd van">
            <input
              id="werktijd-van"
              className={inputClass("admin")}
              value={draft.from}
              maxLength={5}
              onChange={(event) => set({ from: event.target.value })}
            />
          </Field>
          <Field look="admin" id="werktijd-tot" label="Werktijd tot" hint="24:00 voor het eind van de dag">
            <input
              id="werktijd-tot"
              className={inputClass("admin")}
              value={draft.to}
              maxLength={5}
              aria-describedby="werktijd-tot-hint"
              onChange={(event) => set({ to: event.target.value })}
            />
          </Field>
        </div>
        <Field
          look="admin"
          id="gesloten-dagen"
          label="Extra gesloten dagen"
          hint="Eén datum per regel (JJJJ-MM-DD), naast de Nederlandse feestdagen"
        >
          <textarea
            id="gesloten-dagen"
            rows={3}
            maxLength={5000}
            className={inputClass("admin")}
            value={draft.closedDays}
            aria-describedby="gesloten-dagen-hint"
            onChange={(event) => set({ closedDays: event.target.value })}
          />
        </Field>
        {errors.length > 0 && (
          <ul role="alert" className="list-disc pl-5 text-sm text-red-700" data-testid="field-error">
            {errors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
        <div className="flex gap-2">
          <Button type="submit" disabled={form.pending}>
            {form.pending ? "Opslaan..." : "Opslaan"}
          </Button>
          <Button variant="secondary" disabled={form.pending} onClick={form.cancel}>
            Annuleren
          </Button>
        </div>
      </form>
    </Panel>
  );
}

function PromiseField({
  id,
  label,
  hours,
  basis,
  onHours,
  onBasis,
}: {
  id: string;
  label: string;
  hours: string;
  basis: ResponseBasis;
  onHours: (hours: string) => void;
  onBasis: (basis: ResponseBasis) => void;
}) {
  return (
    <div className="flex items-end gap-2">
      <div className="flex-1">
        <Field look="admin" id={id} label={label}>
          <input
            id={id}
            inputMode="decimal"
            maxLength={8}
            className={inputClass("admin")}
            value={hours}
            onChange={(event) => onHours(event.target.value)}
          />
        </Field>
      </div>
      <label className="sr-only" htmlFor={`${id}-basis`}>
        Geteld in
      </label>
      <Select id={`${id}-basis`} className="w-auto" value={basis} onChange={onBasis} options={BASES} />
    </div>
  );
}
