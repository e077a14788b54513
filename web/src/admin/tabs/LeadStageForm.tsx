import { useQueryClient } from "@tanstack/react-query";
import { LOST_REASONS, type LeaseRequest } from "@lease/contracts";
import type { ReactNode } from "react";
import { userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, updateLeaseStatus } from "../api";
import { Button, FieldError, fieldAria, inputClass, Select } from "../../components/ui";
import { hasErrors, useForm } from "../../lib/use-form";
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

/** The stage form's fields as the lead stands (an open lead starts at an offer). */
function stageFieldsOf(request: LeaseRequest): StageFields {
  return {
    stage: request.status === "getekend" || request.status === "verloren" ? request.status : "offerte",
    monthlyAmount: amountText(request.monthlyAmount),
    commission: amountText(request.commission),
    term: request.contractTerm === null ? "" : String(request.contractTerm),
    lostReason: request.lostReason ?? "te duur",
    note: request.lostNote ?? "",
  };
}

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
  const done = (updated: LeaseRequest, title: string, now: string) => {
    notify({ title, description: `De aanvraag staat ${now} op ${STATUS_LABELS[updated.status]}.` });
    onSaved(updated);
    void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.leaseRequests });
  };
  // The fields stay as saved (the summary above shows the stage the server answered).
  const form = useForm({
    initial: stageFieldsOf(request),
    validate: (fields) => {
      const result = stageBody(fields);
      return "errors" in result ? result.errors : {};
    },
    recheck: () => ({}),
    keepValues: true,
    // Leaving a signed contract for an offer or a loss drops its commission: asked first.
    confirm: (fields) =>
      request.status !== "getekend" ||
      fields.stage === "getekend" ||
      window.confirm(`${STAGE_NAMES[fields.stage]} opslaan?\n\n${stageLoss(request, fields.stage)}`),
    submit: (fields) => {
      const result = stageBody(fields);
      if ("errors" in result) throw new Error("checked before sending");
      return updateLeaseStatus(request.id, result.body);
    },
    onSuccess: (updated) => {
      back.setErrors({});
      done(updated, "Fase Opgeslagen", "nu");
    },
    onFailed: (failure, byField) => {
      if (!hasErrors(byField))
        form.setErrors({ form: userErrorMessage(failure, "Kon de fase niet opslaan") });
    },
  });
  const moveBack = moveBackOf(request);
  // "Fase terugzetten": one change at a time with the form's save (each holds the other's button).
  const back = useForm({
    initial: {},
    confirm: () => Boolean(moveBack && window.confirm(moveBack.question)),
    submit: () => updateLeaseStatus(request.id, moveBack!.body),
    onSuccess: (updated) => {
      form.setErrors({});
      done(updated, "Fase Teruggezet", "weer");
    },
    onFailed: (failure) => {
      // Refused when the lead changed meanwhile: the message says so, the list shows the change.
      back.setErrors({ back: userErrorMessage(failure, "Kon de fase niet terugzetten") });
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.leaseRequests });
    },
  });
  const fields = form.values;
  const errors = { ...form.errors, ...back.errors };
  const pending = form.pending || back.pending;
  const set = (key: keyof StageFields) => (value: string) => form.set(key, value as never);
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
            disabled={pending}
            aria-describedby={id("terug-uitleg")}
            onClick={() => void back.submit()}
          >
            {back.pending ? "Terugzetten..." : "Fase terugzetten"}
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
      <form className="grid gap-3 sm:grid-cols-2" noValidate onSubmit={form.onSubmit}>
        <Field id={id("stage")} label="Nieuwe fase">
          <Select
            id={id("stage")}
            value={fields.stage}
            onChange={(stage) => {
              form.set("stage", stage);
              form.setErrors({});
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
          <Button type="submit" disabled={pending}>
            {form.pending ? "Opslaan..." : "Fase opslaan"}
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
      <FieldError id={id} error={error} />
    </div>
  );
}
