import { EMAIL_MESSAGE, MESSAGE_MIN_MESSAGE, SUBJECT_REQUIRED_MESSAGE } from "@lease/contracts";
import type { ComposeDraft } from "./compose-template";

export type ComposeErrors = Partial<Record<keyof ComposeDraft, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** SPEC §5 compose rules; the server checks the same with SendEmailBody. */
export function validateCompose(draft: ComposeDraft): ComposeErrors {
  const errors: ComposeErrors = {};
  if (!EMAIL.test(draft.to.trim())) errors.to = EMAIL_MESSAGE;
  if (draft.subject.trim().length < 1) errors.subject = SUBJECT_REQUIRED_MESSAGE;
  if (draft.message.length < 10) errors.message = MESSAGE_MIN_MESSAGE;
  return errors;
}

export const COMPOSE_CLOSE_DELAY_MS = 2_000;
