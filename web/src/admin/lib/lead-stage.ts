import { CONTRACT_TERM_MAX, type LostReason, type UpdateLeaseStatusInput } from "@lease/contracts";
import { formatEuro, parseEuroInput } from "./format";

const AMOUNT_HINT = "bijvoorbeeld 1.200,00";

/** Euros as the form shows them again: "1200,5" → "1.200,50". */
export const amountText = (euros: number | null) =>
  euros === null ? "" : formatEuro(euros).replace("€ ", "");

export interface StageFields {
  stage: "offerte" | "getekend" | "verloren";
  monthlyAmount: string;
  commission: string;
  term: string;
  lostReason: LostReason;
  note: string;
}

/** The PATCH body for the form's fields, or the Dutch message per field that is not right. */
export function stageBody(
  fields: StageFields,
): { body: UpdateLeaseStatusInput } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const amount = (key: "monthlyAmount" | "commission", required: boolean, what: string) => {
    const text = fields[key].trim();
    if (!text) {
      if (required) errors[key] = `Vul ${what} in, ${AMOUNT_HINT}`;
      return undefined;
    }
    const euros = parseEuroInput(text);
    if (euros === null)
      errors[key] = `Vul ${what} in als bedrag met hoogstens twee decimalen, ${AMOUNT_HINT}`;
    return euros ?? undefined;
  };
  let body: UpdateLeaseStatusInput;
  if (fields.stage === "offerte") {
    body = { status: "offerte", monthlyAmount: amount("monthlyAmount", true, "het maandbedrag")! };
  } else if (fields.stage === "getekend") {
    const termText = fields.term.trim();
    const term = termText ? Number(termText) : undefined;
    if (term !== undefined && (!Number.isInteger(term) || term < 1 || term > CONTRACT_TERM_MAX))
      errors.term = `Vul de looptijd in als hele maanden, 1 tot ${CONTRACT_TERM_MAX}`;
    body = {
      status: "getekend",
      commission: amount("commission", true, "de commissie")!,
      monthlyAmount: amount("monthlyAmount", false, "het maandbedrag"),
      term,
    };
  } else {
    body = { status: "verloren", lostReason: fields.lostReason, note: fields.note.trim() || undefined };
  }
  return Object.keys(errors).length ? { errors } : { body };
}
