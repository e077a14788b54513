import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  NOTE_MAX_LENGTH,
  NOTE_REQUIRED_MESSAGE,
  NOTE_TOO_LONG_MESSAGE,
  type LeadNote,
  type LeaseRequest,
} from "@lease/contracts";
import { useRef, useState, type RefObject } from "react";
import { userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import {
  ADMIN_KEYS,
  addLeadNote,
  deleteLeadNote,
  fetchLeadEmails,
  fetchLeadHistory,
  fetchMe,
  updateLeadNote,
} from "../api";
import { Badge, Button, FieldError, fieldAria, inputClass, LoadingText } from "../../components/ui";
import { useForm } from "../../lib/use-form";
import { DELIVERY_LABELS, deliveryOf } from "../lib/delivery";
import { formatAmsterdamDateTime } from "../lib/format";
import { closeOnEscape, useReturnFocus } from "../lib/use-return-focus";
import { LEAD_EMAILS } from "../lib/use-lead-alerts";
import { DeliveryState } from "../components/DeliveryState";
import { ReplyBody } from "../components/ReplyBody";
import {
  mergeTimeline,
  timelineDetail,
  timelineKey,
  timelineTitle,
  type TimelineItem,
} from "../lib/timeline";

const historyKey = (id: string) => [...ADMIN_KEYS.leaseRequests, "history", id];
const emailsKey = (id: string) => [...ADMIN_KEYS.emails, LEAD_EMAILS, id];

/** The client's check, the same words as the server's. */
function noteError(body: string): string | undefined {
  if (!body.trim()) return NOTE_REQUIRED_MESSAGE;
  if (body.trim().length > NOTE_MAX_LENGTH) return NOTE_TOO_LONG_MESSAGE;
  return undefined;
}

/**
 * A lead's history in one list, newest first: received, status changes (who, when), the e-mails
 * sent to the lead and the staff's notes; staff add notes and change or delete their own.
 */
export function LeadTimeline({ request }: { request: LeaseRequest }) {
  const id = request.id;
  const queryClient = useQueryClient();
  const me = useQuery({ queryKey: ADMIN_KEYS.me, queryFn: fetchMe, retry: false });
  // A status change reloads the lease-request queries, this history among them.
  const history = useQuery({ queryKey: historyKey(id), queryFn: () => fetchLeadHistory(id), staleTime: 0 });
  // E-mails are sent from the compose window: read again when the provider answered (the
  // dashboard's socket, useLeadAlerts) and when the admin comes back to this window.
  const emails = useQuery({
    queryKey: emailsKey(id),
    queryFn: () => fetchLeadEmails(id),
    staleTime: 0,
    refetchOnWindowFocus: true,
  });
  const reload = () => queryClient.invalidateQueries({ queryKey: historyKey(id) });

  const items = history.data ? mergeTimeline(history.data.items, emails.data ?? []) : [];
  return (
    <section aria-labelledby="tijdlijn-titel" className="space-y-4 border-t border-gray-200 pt-4">
      <h3 id="tijdlijn-titel" className="text-lg font-semibold text-gray-900">
        Geschiedenis
      </h3>
      <NoteForm requestId={id} onSaved={reload} />
      {history.isPending ? (
        <LoadingText />
      ) : history.isError ? (
        <p className="text-red-700">{userErrorMessage(history.error, "Kon de geschiedenis niet laden")}</p>
      ) : (
        <ol className="space-y-3" data-testid="lead-timeline">
          {items.map((item) => (
            <TimelineRow
              key={timelineKey(item)}
              item={item}
              requestId={id}
              adminId={me.data?.admin.id}
              onChanged={reload}
            />
          ))}
        </ol>
      )}
      {emails.isError && (
        <p className="text-sm text-red-700">
          {userErrorMessage(emails.error, "Kon de verstuurde e-mails niet laden")}
        </p>
      )}
    </section>
  );
}

function TimelineRow({
  item,
  requestId,
  adminId,
  onChanged,
}: {
  item: TimelineItem;
  requestId: string;
  /** The signed-in admin's id: only the author (by id, not by name) may edit or delete a note. */
  adminId: string | undefined;
  onChanged: () => void;
}) {
  const delivery = item.kind === "email" ? deliveryOf(item.email) : null;
  const detail = timelineDetail(item);
  return (
    <li
      className="rounded-card border border-gray-200 bg-white p-3"
      data-testid="timeline-item"
      data-kind={item.kind}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <span className="font-medium wrap-anywhere text-gray-900">{timelineTitle(item)}</span>
        <time className="text-xs text-gray-600" dateTime={item.at}>
          {formatAmsterdamDateTime(item.at)}
        </time>
      </div>
      {detail && <p className="mt-1 text-sm wrap-anywhere text-gray-700">{detail}</p>}
      {item.kind === "email" && (
        <div className="mt-1 flex flex-wrap items-center gap-2 text-sm text-gray-700">
          <span className="wrap-anywhere">{item.email.subject}</span>
          {delivery && (
            <Badge
              tone={delivery.status === "sent" ? "green" : delivery.status === "failed" ? "red" : "yellow"}
            >
              {DELIVERY_LABELS[delivery.status]}
            </Badge>
          )}
        </div>
      )}
      {item.kind === "email" && <DeliveryState delivery={item.email.delivery} />}
      {item.kind === "reply" && <ReplyBody email={item.email} />}
      {item.kind === "note" && (
        <NoteBody
          note={item.note}
          requestId={requestId}
          mine={adminId !== undefined && item.note.authorId === adminId}
          onChanged={onChanged}
        />
      )}
    </li>
  );
}

function NoteBody({
  note,
  requestId,
  mine,
  onChanged,
}: {
  note: LeadNote;
  requestId: string;
  mine: boolean;
  onChanged: () => void;
}) {
  const { notify, notifyError } = useNotice();
  const [editing, setEditing] = useState(false);
  // Editing opens in place: focus into the text, and back to "Bewerken" once saved or cancelled.
  const editButton = useRef<HTMLButtonElement>(null);
  const editField = useRef<HTMLTextAreaElement>(null);
  useReturnFocus(editing, editField, editButton);
  const remove = useMutation({
    mutationFn: () => deleteLeadNote(requestId, note.id),
    onSuccess: () => {
      notify({ title: "Notitie Verwijderd", description: "De notitie is verwijderd." });
      onChanged();
    },
    onError: (error) => notifyError("Fout bij Verwijderen", error, "Kon de notitie niet verwijderen"),
  });
  if (editing)
    return (
      <NoteForm
        requestId={requestId}
        note={note}
        onSaved={() => {
          setEditing(false);
          onChanged();
        }}
        onCancel={() => setEditing(false)}
        field={editField}
      />
    );
  return (
    <>
      <p className="mt-2 whitespace-pre-wrap wrap-anywhere text-gray-800">{note.body}</p>
      {mine && (
        <div className="mt-2 flex gap-2">
          <Button
            ref={editButton}
            variant="secondary"
            onClick={() => setEditing(true)}
            aria-label="Notitie bewerken"
          >
            Bewerken
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            aria-label="Notitie verwijderen"
            onClick={() => {
              if (window.confirm("Weet je zeker dat je deze notitie wilt verwijderen?")) remove.mutate();
            }}
          >
            Verwijderen
          </Button>
        </div>
      )}
    </>
  );
}

/** Adds a note, or changes `note` when given. */
function NoteForm({
  requestId,
  note,
  onSaved,
  onCancel,
  field,
}: {
  requestId: string;
  note?: LeadNote;
  onSaved: () => void;
  /** Given when editing: a Cancel button, and Escape in the form cancels too. */
  onCancel?: () => void;
  field?: RefObject<HTMLTextAreaElement | null>;
}) {
  const { notify } = useNotice();
  const fieldId = note ? `notitie-${note.id}` : `notitie-nieuw-${requestId}`;
  const form = useForm({
    initial: { body: note?.body ?? "" },
    validate: ({ body }) => ({ body: noteError(body) }),
    submit: ({ body }) => (note ? updateLeadNote(requestId, note.id, body) : addLeadNote(requestId, body)),
    onSuccess: () => {
      notify({
        title: "Notitie Opgeslagen",
        description: note ? "De notitie is bijgewerkt." : "De notitie is toegevoegd.",
      });
      onSaved();
    },
    // What failed is said under the field, without a notice.
    onFailed: (failure, fields) => {
      if (!fields.body) form.setErrors({ body: userErrorMessage(failure, "Kon de notitie niet opslaan") });
    },
  });
  const body = form.values.body;
  const error = form.errors.body;
  return (
    <form
      className="space-y-2"
      noValidate
      onKeyDown={onCancel ? closeOnEscape(onCancel) : undefined}
      onSubmit={form.onSubmit}
    >
      <label htmlFor={fieldId} className={note ? "sr-only" : "text-sm font-semibold text-gray-800"}>
        {note ? "Notitie bewerken" : "Notitie toevoegen"}
      </label>
      <textarea
        ref={field}
        id={fieldId}
        className={inputClass("admin")}
        rows={3}
        maxLength={NOTE_MAX_LENGTH}
        value={body}
        {...fieldAria(fieldId, { error, describedBy: `${fieldId}-teller` })}
        onChange={(event) => form.set("body", event.target.value)}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span id={`${fieldId}-teller`} className="text-xs text-gray-600">
          {body.length}/{NOTE_MAX_LENGTH} tekens
        </span>
        <div className="flex gap-2">
          {onCancel && (
            <Button variant="secondary" onClick={onCancel}>
              Annuleren
            </Button>
          )}
          <Button type="submit" disabled={form.pending}>
            {form.pending ? "Opslaan..." : note ? "Opslaan" : "Notitie opslaan"}
          </Button>
        </div>
      </div>
      <FieldError id={fieldId} error={error} className="" />
    </form>
  );
}
