import type { ReactNode } from "react";

/**
 * A received e-mail's attachment: a download link while it is kept, else `notKept` (what the
 * place says of an attachment that was not stored).
 */
export function AttachmentLink({
  emailId,
  attachment,
  notKept,
}: {
  emailId: string;
  attachment: { id: string; fileName: string; kept: boolean };
  notKept: ReactNode;
}) {
  if (!attachment.kept) return notKept;
  return (
    <a
      className="text-primary-strong underline"
      href={`/api/admin/emails/${emailId}/attachments/${attachment.id}`}
      download={attachment.fileName}
    >
      {attachment.fileName}
    </a>
  );
}
