import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { EmailFolder, EmailMessage } from "@lease/contracts";
import { useRef, useState } from "react";
import { userErrorMessage } from "../../api/client";
import { revealDetail } from "../lib/scroll";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, cancelEmail, deleteEmail, fetchEmails, markEmailRead, retryEmail } from "../api";
import { Badge, Button, LoadError, LoadingText, Panel, RefreshFailed } from "../../components/ui";
import { formatAmsterdamDateTime, previewText } from "../lib/format";
import {
  deliveryBadge,
  emailTime,
  emailTimeLabel,
  emailTypeLabel,
  isCancellable,
  openComposeWindow,
  senderPhone,
  unreadCount,
} from "../lib/inbox";
import { telHref } from "../../lib/company";
import { useMailOutcomes } from "../lib/use-admin-socket";
import { EmailTypeIcon } from "../components/EmailTypeIcon";
import { DeliveryState } from "../components/DeliveryState";
import { LeadLink, LeadName } from "../components/LeadLink";
import { ReceivedEmailBody } from "../components/ReceivedEmailBody";

const INBOX_REFRESH_MS = 30_000;
const FOLDERS: { id: EmailFolder; label: string }[] = [
  { id: "inbox", label: "Ontvangen" },
  // Not "Verzonden": it also holds what is queued or failed, each with its real state.
  { id: "sent", label: "Uitgaand" },
  // Received e-mails SendGrid scored as spam: kept apart, not counted as unread mail.
  { id: "spam", label: "Spam" },
];

export function InboxTab() {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  // Received mail and the mail sent from the panel (with its delivery state) are kept apart.
  const [folder, setFolder] = useState<EmailFolder>("inbox");
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const detailRef = useRef<HTMLDivElement>(null);
  // Pages of 500, newest first; "Meer laden" adds the next older page. The refresh re-reads every
  // loaded page, so read marks and deletions show everywhere.
  const emails = useInfiniteQuery({
    queryKey: [...ADMIN_KEYS.emails, folder],
    queryFn: ({ pageParam }) => fetchEmails(folder, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    refetchInterval: INBOX_REFRESH_MS,
    staleTime: 0,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.emails });
  // SendGrid's answers arrive over the admin socket: sent mail shows them without waiting 30 s.
  useMailOutcomes(() => void queryClient.invalidateQueries({ queryKey: [...ADMIN_KEYS.emails, "sent"] }));

  const markRead = useMutation({ mutationFn: markEmailRead, onSuccess: () => void refresh() });
  const remove = useMutation({
    mutationFn: deleteEmail,
    onSuccess: () => {
      setSelectedId(null);
      notify({ title: "E-mail Verwijderd", description: "De e-mail is verwijderd." });
      void refresh();
    },
    onError: (error) => notifyError("Fout bij Verwijderen", error, "Er is een fout opgetreden"),
  });

  const retry = useMutation({
    mutationFn: retryEmail,
    onSuccess: () => {
      notify({ title: "In de wachtrij", description: "De e-mail wordt opnieuw verstuurd." });
      void refresh();
    },
    onError: (error) =>
      notifyError("Fout bij Verzenden", error, "Er is een fout opgetreden bij het verzenden"),
  });

  const cancel = useMutation({
    mutationFn: cancelEmail,
    onSuccess: ({ reason }) => {
      notify({ title: "Verzenden geannuleerd", description: reason });
      void refresh();
    },
    onError: (error) => {
      notifyError("Annuleren mislukt", error, "Er is een fout opgetreden bij het annuleren");
      void refresh();
    },
  });

  const pages = emails.data?.pages ?? [];
  const list = uniqueById(pages.flatMap((page) => page.items));
  // Counts over the whole inbox (headers); the loaded list when a server sends none.
  const total = pages[0]?.total ?? list.length;
  const unread = pages[0]?.unread ?? unreadCount(list);
  const selected = list.find((email) => email.id === selectedId) ?? null;
  const open = (email: EmailMessage) => {
    setSelectedId(email.id);
    revealDetail(detailRef.current);
    if (!email.isRead) markRead.mutate(email.id);
  };

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
      <Panel
        className="lg:col-span-2"
        title={
          folder === "inbox" ? (
            <span className="flex flex-wrap items-center gap-2">
              E-mail Inbox ({total})<Badge tone={unread > 0 ? "red" : "gray"}>{unread} ongelezen</Badge>
            </span>
          ) : folder === "spam" ? (
            `Spam (${total})`
          ) : (
            `Uitgaande e-mail (${total})`
          )
        }
        actions={
          <Button variant="secondary" onClick={() => void refresh()} disabled={emails.isFetching}>
            {emails.isFetching ? "Vernieuwen..." : "Vernieuwen"}
          </Button>
        }
      >
        <div className="mb-4 flex gap-2" role="group" aria-label="Map">
          {FOLDERS.map((entry) => (
            <Button
              key={entry.id}
              variant={folder === entry.id ? "primary" : "secondary"}
              aria-pressed={folder === entry.id}
              onClick={() => {
                setFolder(entry.id);
                setSelectedId(null);
              }}
            >
              {entry.label}
            </Button>
          ))}
        </div>
        {emails.isError && emails.data && (
          <RefreshFailed message={userErrorMessage(emails.error, "Kon de inbox niet laden")} what="e-mails" />
        )}
        {emails.isPending ? (
          <LoadingText />
        ) : emails.isError && !emails.data ? (
          <LoadError query={emails} fallback="Kon de inbox niet laden" />
        ) : list.length === 0 ? (
          <p className="py-8 text-center text-gray-600">
            {folder === "sent"
              ? "Nog geen e-mails verzonden"
              : folder === "spam"
                ? "Geen e-mails als spam herkend"
                : "Geen e-mails ontvangen"}
          </p>
        ) : (
          <ul className="max-h-[32rem] space-y-2 overflow-y-auto pr-1" data-testid="inbox-list">
            {list.map((email) => (
              <li key={email.id}>
                <InboxItem email={email} active={email.id === selectedId} onOpen={() => open(email)} />
              </li>
            ))}
            {emails.hasNextPage && (
              <li className="pt-2 text-center">
                <p className="text-sm text-gray-600">
                  {list.length} van {total} e-mails getoond
                </p>
                <Button
                  variant="secondary"
                  className="mt-2"
                  onClick={() => void emails.fetchNextPage()}
                  disabled={emails.isFetching}
                >
                  {emails.isFetchingNextPage ? "Laden..." : "Meer laden"}
                </Button>
              </li>
            )}
          </ul>
        )}
      </Panel>
      <div className="lg:col-span-3" ref={detailRef}>
        {selected ? (
          <EmailDetail
            email={selected}
            busy={remove.isPending || retry.isPending || cancel.isPending}
            onRetry={() => retry.mutate(selected.id)}
            onCancel={() => cancel.mutate(selected.id)}
            onDelete={() => {
              if (window.confirm("Weet je zeker dat je deze e-mail wilt verwijderen?"))
                remove.mutate(selected.id);
            }}
          />
        ) : (
          <Panel>
            <p className="py-16 text-center text-gray-600">Selecteer een e-mail om de details te bekijken</p>
          </Panel>
        )}
      </div>
    </div>
  );
}

function InboxItem({ email, active, onOpen }: { email: EmailMessage; active: boolean; onOpen: () => void }) {
  const delivery = deliveryBadge(email.deliveryStatus, email.failureReason);
  const outgoing = delivery !== null;
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="inbox-item"
      data-unread={!email.isRead}
      aria-current={active || undefined}
      className={`w-full rounded-card border p-3 text-left ${
        active
          ? "border-primary ring-2 ring-primary/30"
          : email.isRead
            ? "border-gray-200 bg-white hover:bg-gray-50"
            : "border-blue-200 bg-blue-50 hover:bg-blue-100"
      }`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-gray-600">
        <span className="flex items-center gap-1 font-semibold text-gray-700">
          <EmailTypeIcon type={email.messageType} />
          {outgoing ? "Uitgaande e-mail" : emailTypeLabel(email.messageType)}
        </span>
        <span>
          {emailTimeLabel(email)} {formatAmsterdamDateTime(emailTime(email))}
        </span>
      </div>
      <p className={`mt-1 break-words text-gray-900 ${email.isRead ? "font-medium" : "font-bold"}`}>
        {email.subject}
      </p>
      <p className="text-sm wrap-anywhere text-gray-700">
        {outgoing ? `Aan: ${email.recipientEmail}` : `${email.senderName} <${email.senderEmail}>`}
      </p>
      <p className="mt-1 text-sm break-words text-gray-600">{previewText(email.messageBody)}</p>
      {!outgoing && email.leaseRequestId && <LeadName leaseRequestId={email.leaseRequestId} />}
      {email.attachments.length > 0 && (
        <p className="mt-1 text-xs text-gray-600">
          {email.attachments.length === 1 ? "1 bijlage" : `${email.attachments.length} bijlagen`}
        </p>
      )}
      {delivery && (
        <div className="mt-2 flex flex-wrap gap-2">
          <Badge tone={delivery.tone}>{delivery.label}</Badge>
          <DeliveryState delivery={email.delivery} />
        </div>
      )}
    </button>
  );
}

function EmailDetail({
  email,
  busy,
  onDelete,
  onRetry,
  onCancel,
}: {
  email: EmailMessage;
  busy: boolean;
  onDelete: () => void;
  onRetry: () => void;
  onCancel: () => void;
}) {
  const delivery = deliveryBadge(email.deliveryStatus, email.failureReason);
  return (
    <Panel>
      <div data-testid="email-detail" className="space-y-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h2 className="text-xl font-bold break-words text-gray-900">{email.subject}</h2>
          <div className="flex gap-2">
            <Badge tone="blue">{delivery ? "Uitgaande e-mail" : emailTypeLabel(email.messageType)}</Badge>
            {delivery && <Badge tone={delivery.tone}>{delivery.label}</Badge>}
          </div>
        </div>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="font-medium text-gray-600">Afzender</dt>
            <dd className="text-gray-900">{email.senderName}</dd>
          </div>
          <div>
            <dt className="font-medium text-gray-600">E-mail</dt>
            <dd className="wrap-anywhere text-gray-900">
              <a className="text-primary-strong underline" href={`mailto:${email.senderEmail}`}>
                {email.senderEmail}
              </a>
            </dd>
          </div>
          {senderPhone(email) && (
            <div>
              <dt className="font-medium text-gray-600">Telefoon</dt>
              <dd className="text-gray-900">
                <a className="text-primary-strong underline" href={telHref(senderPhone(email)!)}>
                  {senderPhone(email)}
                </a>
              </dd>
            </div>
          )}
          {email.recipientEmail && (
            <div>
              <dt className="font-medium text-gray-600">Aan</dt>
              <dd className="wrap-anywhere text-gray-900">{email.recipientEmail}</dd>
            </div>
          )}
          <div>
            <dt className="font-medium text-gray-600">{emailTimeLabel(email)}</dt>
            <dd className="text-gray-900">{formatAmsterdamDateTime(emailTime(email))}</dd>
          </div>
          {email.leaseRequestId && (
            <div>
              <dt className="font-medium text-gray-600">Aanvraag</dt>
              <dd>
                <LeadLink leaseRequestId={email.leaseRequestId} />
              </dd>
            </div>
          )}
        </dl>
        <DeliveryState delivery={email.delivery} />
        {email.failureReason && (
          <p
            className="rounded-card border border-red-300 bg-red-50 p-3 text-sm text-red-900"
            data-testid="failure-reason"
          >
            {email.failureReason}
            {email.deliveryStatus === "queued" && " Er volgt automatisch een nieuwe poging."}
          </p>
        )}
        {email.deliveryStatus === "received" ? (
          <ReceivedEmailBody email={email} />
        ) : (
          <div className="rounded-card border border-gray-200 bg-gray-50 p-4 whitespace-pre-wrap wrap-anywhere text-gray-900">
            {email.messageBody}
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          {!delivery && (
            <Button onClick={() => openComposeWindow({ replyTo: email.id })}>Beantwoorden</Button>
          )}
          {email.deliveryStatus === "failed" && (
            <Button onClick={onRetry} disabled={busy}>
              Opnieuw versturen
            </Button>
          )}
          {isCancellable(email) && (
            <Button variant="secondary" onClick={onCancel} disabled={busy}>
              Verzenden annuleren
            </Button>
          )}
          <Button variant="danger" onClick={onDelete} disabled={busy}>
            Verwijderen
          </Button>
        </div>
      </div>
    </Panel>
  );
}

/** Pages are read at different moments: an e-mail can sit on two of them for one refresh. */
function uniqueById(emails: EmailMessage[]): EmailMessage[] {
  const seen = new Set<string>();
  return emails.filter((email) => {
    if (seen.has(email.id)) return false;
    seen.add(email.id);
    return true;
  });
}
