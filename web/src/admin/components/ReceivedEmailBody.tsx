import { useQuery } from "@tanstack/react-query";
import type { EmailMessage } from "@lease/contracts";
import { useMemo, useState } from "react";
import { ADMIN_KEYS, fetchEmailDetail } from "../api";
import { Button } from "../../components/ui";
import { cleanEmailHtml } from "../lib/email-html";
import { AttachmentLink } from "./AttachmentLink";
import { formatBytes } from "../lib/format";

/**
 * A received e-mail's body: its HTML cleaned (remote images held back until "Afbeeldingen
 * tonen"), else its text; then its attachments, each downloaded by the signed-in admin.
 */
export function ReceivedEmailBody({ email }: { email: EmailMessage }) {
  const detail = useQuery({
    queryKey: [...ADMIN_KEYS.emails, "detail", email.id],
    queryFn: () => fetchEmailDetail(email.id),
    enabled: email.deliveryStatus === "received",
    staleTime: 60_000,
  });
  const [showImages, setShowImages] = useState(false);
  const html = detail.data?.html ?? null;
  const clean = useMemo(() => (html ? cleanEmailHtml(html, showImages) : null), [html, showImages]);
  return (
    <div className="space-y-3">
      {clean ? (
        <>
          {clean.blockedImages > 0 && (
            <div
              className="flex flex-wrap items-center gap-2 text-sm text-gray-700"
              data-testid="images-held-back"
            >
              <span>
                {clean.blockedImages === 1
                  ? "1 afbeelding van buiten is niet geladen."
                  : `${clean.blockedImages} afbeeldingen van buiten zijn niet geladen.`}
              </span>
              <Button variant="secondary" onClick={() => setShowImages(true)}>
                Afbeeldingen tonen
              </Button>
            </div>
          )}
          <div
            className="email-html rounded-card border border-gray-200 bg-white p-4 wrap-anywhere text-gray-900"
            data-testid="email-html"
            // Cleaned by DOMPurify above (lib/email-html.ts): no script, handler, form or remote load.
            dangerouslySetInnerHTML={{ __html: clean.html }}
          />
        </>
      ) : (
        <div className="rounded-card border border-gray-200 bg-gray-50 p-4 whitespace-pre-wrap wrap-anywhere text-gray-900">
          {email.messageBody}
        </div>
      )}
      {email.attachments.length > 0 && (
        <div>
          <h3 className="text-sm font-medium text-gray-600">Bijlagen</h3>
          <ul className="mt-1 space-y-1 text-sm" data-testid="attachments">
            {email.attachments.map((a) => (
              <li key={a.id} className="wrap-anywhere">
                <AttachmentLink
                  emailId={email.id}
                  attachment={a}
                  notKept={<span>{a.fileName} (niet bewaard: de opslag voor bijlagen was vol)</span>}
                />{" "}
                <span className="text-gray-600">
                  ({a.contentType}, {formatBytes(a.sizeBytes)})
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
