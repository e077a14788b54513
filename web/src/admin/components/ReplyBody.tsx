import type { LeadEmail } from "@lease/contracts";
import { Button } from "../../components/ui";
import { AttachmentLink } from "./AttachmentLink";
import { formatBytes } from "../lib/format";
import { openComposeWindow } from "../lib/inbox";

/** A customer's reply on the lead's timeline: its subject, text and attachments (downloads). */
export function ReplyBody({ email }: { email: LeadEmail }) {
  return (
    <div className="mt-1 space-y-1 text-sm text-gray-700" data-testid="timeline-reply">
      <p className="font-medium wrap-anywhere">{email.subject}</p>
      <p className="line-clamp-6 whitespace-pre-wrap wrap-anywhere">{email.text}</p>
      {email.attachments.length > 0 && (
        <ul className="space-y-0.5">
          {email.attachments.map((a) => (
            <li key={a.id} className="wrap-anywhere">
              <AttachmentLink emailId={email.id} attachment={a} notKept={`${a.fileName} (niet bewaard)`} />{" "}
              <span className="text-gray-600">({formatBytes(a.sizeBytes)})</span>
            </li>
          ))}
        </ul>
      )}
      {/* Answered from the lead: the compose window with "Re: …" and the customer's words quoted. */}
      <Button variant="secondary" onClick={() => openComposeWindow({ replyTo: email.id })}>
        Beantwoorden
      </Button>
    </div>
  );
}
