import { useMutation, useQueryClient } from "@tanstack/react-query";
import { LOST_REASONS, type LeaseRequest, type UpdateLeaseStatusInput } from "@lease/contracts";
import { useState, type ReactNode } from "react";
import { fieldErrors, userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, updateLeaseStatus } from "../api";
import { Button, fieldAria, inputClass, Select } from "../../components/ui";
import { formatEuro } from "../lib/format";
import {
  amountText,
  moveBackOf,
  STAGE_NAMES,
  stageBody,
  stageLoss,
  type StageFields,
} from "../lib/lead-stage";
import { STATUS_LABELS } from "../lib/timeline";

const STAGE_OPTIONS: { value: StageFields["stage"]; label: string }[] = [
  { value: "offerte", label: "Offerte verstuurd" },
  { value: "getekend", label: "Contract getekend" },
  { value: "verloren", label: "Verloren" },
];

/** The lead's road to a contract: its stage with amounts, and a form to set the next one. */
export function LeadStageForm({
  request,
  onSaved,
}: {
  request: LeaseRequest;
  onSaved: (updated: LeaseRequest) => void;
}) {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const [fields, setFields] = useState<StageFields>(() => ({
    stage: request.status === "getekend" || request.status === "verloren" ? request.status : "offerte",
    monthlyAmount: amountText(request.monthlyAmount),
    commission: amountText(request.commission),
    term: request.contractTerm === null ? "" : String(request.contractTerm),
    lostReason: request.lostReason ?? "te duur",
    note: request.lostNote ?? "",
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  // One mutation for the form's save and for "Fase terugzetten" (`back`): one change at a time.
  const save = useMutation({
    mutationFn: (input: { body: UpdateLeaseStatusInput; back?: true }) =>
      updateLeaseStatus(request.id, input.body),
    onSuccess: (updated, input) => {
      setErrors({});
      const stage = STATUS_LABELS[updated.status];
      notify(
        input.back
          ? { title: "Fase Teruggezet", description: `De aanvraag staat weer op ${stage}.` }
          : { title: "Fase Opgeslagen", description: `De aanvraag staat nu op ${stage}.` },
      );
      onSaved(updated);
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.leaseRequests });
    },
    onError: (failure, input) => {
      if (input.back) {
        // Refused when the lead changed meanwhile: the message says so, the list shows the change.
        setErrors({ back: userErrorMessage(failure, "Kon de fase niet terugzetten") });
        void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.leaseRequests });
        return;
      }
      const byField = fieldErrors(failure);
      setErrors(
        Object.keys(byField).length
          ? byField
          : { form: userErrorMessage(failure, "Kon de fase niet opslaan") },
      );
    },
  });
  const moveBack = moveBackOf(request);
  const set = (key: keyof StageFields) => (value: string) => setFields((now) => ({ ...now, [key]: value }));
  const id = (key: string) => `fase-${key}-${request.id}`;

  return (
    <section
      aria-labelledby={id("titel")}
      className="space-y-3 border-t border-gray-200 pt-4"
      data-testid="lead-stage"
    >
      <h3 id={id("titel")} className="text-lg font-semibold text-gray-900">
        Fase
      </h3>
      <StageSummary request={request} />
      {moveBack && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <Button
            variant="secondary"
            disabled={save.isPending}
            aria-describedby={id("terug-uitleg")}
            onClick={() => {
              if (window.confirm(moveBack.question)) save.mutate({ body: moveBack.body, back: true });
            }}
          >
            {save.isPending && save.variables?.back ? "Terugzetten..." : "Fase terugzetten"}
          </Button>
          <p id={id("terug-uitleg")} className="text-sm text-gray-600">
            Terug naar {STAGE_NAMES[moveBack.to]}; je ziet eerst wat er vervalt.
          </p>
          {errors.back && (
            <p className="w-full text-sm font-medium text-red-700" role="alert">
              {errors.back}
            </p>
          )}
        </div>
      )}
      <form
        className="grid gap-3 sm:grid-cols-2"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const result = stageBody(fields);
          if ("errors" in result) setErrors(result.errors);
          // Leaving a signed contract for an offer or a loss drops its commission: asked first.
          else if (
            request.status !== "getekend" ||
            fields.stage === "getekend" ||
            window.confirm(`${STAGE_NAMES[fields.stage]} opslaan?\n\n${stageLoss(request, fields.stage)}`)
          )
            save.mutate({ body: result.body });
        }}
      >
        <Field id={id("stage")} label="Nieuwe fase">
          <Select
            id={id("stage")}
            value={fields.stage}
            onChange={(stage) => {
              set("stage")(stage);
              setErrors({});
            }}
            options={STAGE_OPTIONS}
          />
        </Field>
        {fields.stage === "getekend" && (
          <AmountField
            id={id("commissie")}
            label="Commissie (€)"
            value={fields.commission}
            error={errors.commission}
            onChange={set("commission")}
          />
        )}
        {fields.stage !== "verloren" && (
          <AmountField
            id={id("maandbedrag")}
            label={fields.stage === "offerte" ? "Maandbedrag (€)" : "Maandbedrag (€, optioneel)"}
            value={fields.monthlyAmount}
            error={errors.monthlyAmount}
            onChange={set("monthlyAmount")}
          />
        )}
        {fields.stage === "getekend" && (
          <Field id={id("looptijd")} label="Looptijd (maanden, optioneel)" error={errors.term}>
            <input
              id={id("looptijd")}
              inputMode="numeric"
              className={inputClass("admin")}
              value={fields.term}
              aria-invalid={errors.term ? true : undefined}
              onChange={(event) => set("term")(event.target.value)}
            />
          </Field>
        )}
        {fields.stage === "verloren" && (
          <>
            <Field id={id("reden")} label="Reden" error={errors.lostReason}>
              <Select
                id={id("reden")}
                value={fields.lostReason}
                onChange={set("lostReason")}
                options={LOST_REASONS.map((reason) => ({ value: reason, label: reason }))}
              />
            </Field>
            <Field id={id("toelichting")} label="Toelichting (optioneel)" error={errors.note} wide>
              <textarea
                id={id("toelichting")}
                className={inputClass("admin")}
                rows={2}
                maxLength={1000}
                value={fields.note}
                onChange={(event) => set("note")(event.target.value)}
              />
            </Field>
          </>
        )}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending && !save.variables?.back ? "Opslaan..." : "Fase opslaan"}
          </Button>
          {errors.form && (
            <p className="mt-2 text-sm font-medium text-red-700" role="alert">
              {errors.form}
            </p>
          )}
        </div>
      </form>
    </section>
  );
}

/** What the lead's current stage holds, when it is in one. */
function StageSummary({ request }: { request: LeaseRequest }) {
  const rows: [string, string][] = [];
  if (request.monthlyAmount !== null) rows.push(["Maandbedrag", formatEuro(request.monthlyAmount)]);
  if (request.commission !== null) rows.push(["Commissie", formatEuro(request.commission)]);
  if (request.contractTerm !== null) rows.push(["Looptijd contract", `${request.contractTerm} maanden`]);
  if (request.lostReason) rows.push(["Reden verloren", request.lostReason]);
  if (request.lostNote) rows.push(["Toelichting", request.lostNote]);
  if (rows.length === 0) return null;
  return (
    <dl className="grid gap-3 sm:grid-cols-2" data-testid="stage-summary">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm font-medium text-gray-600">{label}</dt>
          <dd className="mt-1 wrap-anywhere text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function AmountField(props: {
  id: string;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error}>
      <input
        id={props.id}
        inputMode="decimal"
        placeholder="0,00"
        className={inputClass("admin")}
        value={props.value}
        {...fieldAria(props.id, { error: props.error })}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </Field>
  );
}

function Field({
  id,
  label,
  error,
  wide,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <label htmlFor={id} className="text-sm font-medium text-gray-700">
        {label}
      </label>
      {children}
      {error && (
        <p id={`${id}-fout`} className="mt-1 text-sm font-medium text-red-700" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
