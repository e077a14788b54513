import { useQueryClient } from "@tanstack/react-query";
import type { LeaseRequest } from "@lease/contracts";
import { userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, setFollowUp } from "../api";
import { Badge, Button, FieldError, fieldAria, inputClass } from "../../components/ui";
import { useForm } from "../../lib/use-form";
import { amsterdamToday, followUpBadge, formatDay } from "../lib/follow-up";

/** "Opvolgen op": the day staff mean to follow this request up (set, change, clear). */
export function FollowUpField({ request }: { request: LeaseRequest }) {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const form = useForm({
    initial: { followUpOn: request.followUpOn ?? "" },
    validate: ({ followUpOn }) => ({ followUpOn: followUpOn ? undefined : "Kies een datum" }),
    // "Wissen" sends an empty day (null), without the check; the day shown stays what was stored.
    keepValues: true,
    submit: ({ followUpOn }) => setFollowUp(request.id, followUpOn || null),
    onSuccess: (updated) => {
      form.set("followUpOn", updated.followUpOn ?? "");
      notify({
        title: "Opvolgdatum Opgeslagen",
        description: updated.followUpOn
          ? `Opvolgen op ${formatDay(updated.followUpOn)}.`
          : "De opvolgdatum is gewist.",
      });
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.leaseRequests });
    },
    onFailed: (failure, fields) => {
      if (!fields.followUpOn)
        form.setErrors({ followUpOn: userErrorMessage(failure, "Kon de opvolgdatum niet opslaan") });
    },
  });
  const day = form.values.followUpOn;
  const error = form.errors.followUpOn;
  const fieldId = `opvolgen-${request.id}`;
  const badge = request.followUpOn ? followUpBadge(request.followUpOn, amsterdamToday()) : null;
  return (
    <form
      className="flex flex-wrap items-end gap-2 border-t border-gray-200 pt-4"
      noValidate
      onSubmit={form.onSubmit}
    >
      <div>
        <label htmlFor={fieldId} className="text-sm font-semibold text-gray-800">
          Opvolgen op
        </label>
        <input
          id={fieldId}
          type="date"
          className={`${inputClass("admin")} w-auto`}
          value={day}
          {...fieldAria(fieldId, { error })}
          onChange={(event) => form.set("followUpOn", event.target.value)}
        />
      </div>
      <Button type="submit" variant="secondary" disabled={form.pending}>
        Opvolgdatum opslaan
      </Button>
      {request.followUpOn && (
        <Button
          variant="secondary"
          disabled={form.pending}
          onClick={() => void form.send({ followUpOn: "" })}
        >
          Wissen
        </Button>
      )}
      {badge && <Badge tone={badge.tone}>{badge.label}</Badge>}
      <FieldError id={fieldId} error={error} className="basis-full" />
    </form>
  );
}
