import {
  COMPOSE_OWN_TEXT_PLACEHOLDER,
  COMPOSE_PLACEHOLDER_MESSAGE,
  EMAIL_MESSAGE,
  MESSAGE_MIN_MESSAGE,
  SUBJECT_REQUIRED_MESSAGE,
} from "@lease/contracts";
import type { ComposeDraft } from "./compose-template";

export type ComposeErrors = Partial<Record<keyof ComposeDraft, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The fields in the order they stand on the page: focus goes to the first with a message. */
export const COMPOSE_FIELDS = ["to", "subject", "message"] as const;

/** Compose rules, and the template's placeholder replaced; the server checks the same (SendEmailBody). */
export function validateCompose(draft: ComposeDraft): ComposeErrors {
  const errors: ComposeErrors = {};
  if (!EMAIL.test(draft.to.trim())) errors.to = EMAIL_MESSAGE;
  if (draft.subject.trim().length < 1) errors.subject = SUBJECT_REQUIRED_MESSAGE;
  if (draft.message.length < 10) errors.message = MESSAGE_MIN_MESSAGE;
  else if (draft.message.includes(COMPOSE_OWN_TEXT_PLACEHOLDER)) errors.message = COMPOSE_PLACEHOLDER_MESSAGE;
  return errors;
}

export const COMPOSE_CLOSE_DELAY_MS = 2_000;
