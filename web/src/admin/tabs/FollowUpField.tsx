import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LeaseRequest } from "@lease/contracts";
import { useState } from "react";
import { fieldErrors, userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, setFollowUp } from "../api";
import { Badge, Button, fieldAria, inputClass } from "../../components/ui";
import { amsterdamToday, followUpBadge, formatDay } from "../lib/follow-up";

/** "Opvolgen op": the day staff mean to follow this request up (set, change, clear). */
export function FollowUpField({ request }: { request: LeaseRequest }) {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const [day, setDay] = useState(request.followUpOn ?? "");
  const [error, setError] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (next: string | null) => setFollowUp(request.id, next),
    onSuccess: (updated) => {
      setDay(updated.followUpOn ?? "");
      setError(undefined);
      notify({
        title: "Opvolgdatum Opgeslagen",
        description: updated.followUpOn
          ? `Opvolgen op ${formatDay(updated.followUpOn)}.`
          : "De opvolgdatum is gewist.",
      });
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.leaseRequests });
    },
    onError: (failure) =>
      setError(
        fieldErrors(failure).followUpOn ?? userErrorMessage(failure, "Kon de opvolgdatum niet opslaan"),
      ),
  });
  const fieldId = `opvolgen-${request.id}`;
  const badge = request.followUpOn ? followUpBadge(request.followUpOn, amsterdamToday()) : null;
  return (
    <form
      className="flex flex-wrap items-end gap-2 border-t border-gray-200 pt-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!day) {
          setError("Kies een datum");
          return;
        }
        save.mutate(day);
      }}
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
          {...fieldAria(fieldId, { error: error || undefined })}
          onChange={(event) => setDay(event.target.value)}
        />
      </div>
      <Button type="submit" variant="secondary" disabled={save.isPending}>
        Opvolgdatum opslaan
      </Button>
      {request.followUpOn && (
        <Button variant="secondary" disabled={save.isPending} onClick={() => save.mutate(null)}>
          Wissen
        </Button>
      )}
      {badge && <Badge tone={badge.tone}>{badge.label}</Badge>}
      {error && (
        <p id={`${fieldId}-fout`} className="basis-full text-sm font-medium text-red-700" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
