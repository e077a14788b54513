import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  CALL_NOTE_MAX_LENGTH,
  CALL_OUTCOMES,
  CALL_OUTCOME_LABELS,
  type CallOutcome,
  type LeaseRequest,
} from "@lease/contracts";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, fetchUsers, logCall, setLeadOwner } from "../api";
import { Badge, Button, buttonClass, inputClass } from "../../components/ui";
import { useForm } from "../../lib/use-form";
import { formatAmsterdamDateTime } from "../lib/format";
import { deadlineText } from "../lib/deadline";

const FIRST_RESPONSE_LABELS = { email: "e-mail", call: "gesprek", status: "status gereageerd" } as const;

/** The deadline badge of a waiting lead ("Nog 2 uur", "3 uur te laat"), with its moment beside it. */
export function LeadDeadline({ request, now }: { request: LeaseRequest; now: Date }) {
  const text = deadlineText(request, now);
  if (!text) return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-1" data-testid="lead-deadline">
      <span>{text.due}</span>
      <Badge tone={text.late ? "red" : "yellow"}>{text.left}</Badge>
    </span>
  );
}

/** The current time, again every minute (the deadlines' "Nog …" and "… te laat"). */
export function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Who answers the lead and how fast: the owner (reassigned here, audited), the deadline or the first
 * response, and the "Bellen" action that dials and then asks how the call went.
 */
export function LeadResponse({
  request,
  tel,
  onUpdated,
}: {
  request: LeaseRequest;
  tel: string;
  onUpdated: (updated: LeaseRequest) => void;
}) {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  const now = useMinuteClock();
  const users = useQuery({ queryKey: ADMIN_KEYS.users, queryFn: fetchUsers, staleTime: 30_000 });
  const candidates = (users.data?.items ?? []).filter((user) => !user.disabled);
  const [calling, setCalling] = useState(false);

  const reassign = useMutation({
    mutationFn: (ownerId: string) => setLeadOwner(request.id, ownerId),
    onSuccess: (updated) => {
      notify({
        title: "Toegewezen",
        description: `De aanvraag is toegewezen aan ${updated.owner?.username ?? "niemand"}.`,
      });
      onUpdated(updated);
      void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.leaseRequests });
    },
    onError: (error) => notifyError("Toewijzen mislukt", error, "Kon de aanvraag niet toewijzen"),
  });

  return (
    <div className="space-y-3 border-t border-gray-200 pt-4" data-testid="lead-response">
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={`eigenaar-${request.id}`} className="block text-sm font-medium text-gray-600">
            Eigenaar
          </label>
          <select
            id={`eigenaar-${request.id}`}
            className={`${inputClass("admin")} mt-1`}
            value={request.owner?.id ?? ""}
            disabled={reassign.isPending || users.isPending}
            onChange={(event) => event.target.value && reassign.mutate(event.target.value)}
          >
            {!request.owner && <option value="">Niemand</option>}
            {request.owner && !candidates.some((user) => user.id === request.owner!.id) && (
              <option value={request.owner.id}>{request.owner.username}</option>
            )}
            {candidates.map((user) => (
              <option key={user.id} value={user.id}>
                {user.username}
              </option>
            ))}
          </select>
        </div>
        <div className="text-sm text-gray-700">
          {request.firstResponseAt ? (
            <span data-testid="lead-first-response">
              Eerste reactie: {formatAmsterdamDateTime(request.firstResponseAt)}
              {request.firstResponseKind && ` (${FIRST_RESPONSE_LABELS[request.firstResponseKind]})`}
            </span>
          ) : (
            <LeadDeadline request={request} now={now} />
          )}
        </div>
      </div>
      {/* Kept clear of notices, as the request's other actions (components/notice/placement.ts). */}
      <div className="flex flex-wrap gap-2" data-notice-keep-clear>
        {/* Dials, and asks how it went for when staff come back to the panel. */}
        <a
          className={buttonClass("accent", "", "small")}
          href={`tel:${tel}`}
          onClick={() => setCalling(true)}
        >
          Bellen
        </a>
        <Button variant="secondary" onClick={() => setCalling(true)}>
          Gesprek vastleggen
        </Button>
      </div>
      {calling && (
        <CallDialog
          request={request}
          onClose={() => setCalling(false)}
          onLogged={() => {
            setCalling(false);
            void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.leaseRequests });
          }}
        />
      )}
    </div>
  );
}

/** How the call went (bereikt, geen gehoor, voicemail, verkeerd nummer) and an optional note. */
function CallDialog({
  request,
  onClose,
  onLogged,
}: {
  request: LeaseRequest;
  onClose: () => void;
  onLogged: () => void;
}) {
  const { notify } = useNotice();
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const form = useForm({
    initial: { outcome: "" as CallOutcome | "", note: "" },
    validate: (values) => ({ outcome: values.outcome ? undefined : "Kies hoe het gesprek ging" }),
    submit: (values) =>
      logCall(request.id, { outcome: values.outcome as CallOutcome, note: values.note.trim() || undefined }),
    onSuccess: (call) => {
      notify({
        title: "Gesprek vastgelegd",
        description: `${CALL_OUTCOME_LABELS[call.outcome]}: op de tijdlijn.`,
      });
      onLogged();
    },
    // What failed is said in the dialog, without a notice.
    serverErrors: () => ({}),
    onFailed: (failure) =>
      form.setErrors({ form: userErrorMessage(failure, "Kon het gesprek niet vastleggen") }),
  });
  const { outcome, note } = form.values;
  const error = form.errors.outcome ?? form.errors.form;
  // Closing with a note typed asks first: the note would be lost.
  const close = () => {
    if (note.trim() && !window.confirm("Het gesprek is niet vastgelegd; je notitie gaat verloren. Sluiten?"))
      return;
    onClose();
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === "Escape") close();
  };
  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-labelledby={`gesprek-titel-${request.id}`}
      className="rounded-card border border-gray-300 bg-gray-50 p-4"
      onKeyDown={onKey}
      data-testid="call-dialog"
    >
      <h3 id={`gesprek-titel-${request.id}`} className="font-semibold text-gray-900">
        Hoe ging het gesprek?
      </h3>
      <form className="mt-2 space-y-3" noValidate onSubmit={form.onSubmit}>
        <fieldset>
          <legend className="sr-only">Uitkomst</legend>
          <div className="flex flex-wrap gap-4">
            {CALL_OUTCOMES.map((value, index) => (
              <label key={value} className="inline-flex items-center gap-2 text-sm">
                <input
                  ref={index === 0 ? first : undefined}
                  type="radio"
                  name={`uitkomst-${request.id}`}
                  value={value}
                  checked={outcome === value}
                  onChange={() => form.set("outcome", value)}
                />
                {CALL_OUTCOME_LABELS[value]}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label
            htmlFor={`gesprek-notitie-${request.id}`}
            className="block text-sm font-medium text-gray-700"
          >
            Notitie (optioneel)
          </label>
          <textarea
            id={`gesprek-notitie-${request.id}`}
            rows={2}
            maxLength={CALL_NOTE_MAX_LENGTH}
            className={inputClass("admin")}
            value={note}
            onChange={(event) => form.set("note", event.target.value)}
          />
        </div>
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="flex gap-2">
          <Button type="submit" disabled={form.pending}>
            {form.pending ? "Opslaan..." : "Gesprek opslaan"}
          </Button>
          <Button variant="secondary" disabled={form.pending} onClick={close}>
            Annuleren
          </Button>
        </div>
      </form>
    </div>
  );
}
