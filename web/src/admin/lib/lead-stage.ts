import {
  CONTRACT_TERM_MAX,
  LEASE_STATUS_NAMES,
  type LeaseRequest,
  type LeaseStatus,
  type LostReason,
  type UpdateLeaseStatusInput,
} from "@lease/contracts";
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

/** The statuses by the names the stage form uses. */
export const STAGE_NAMES = LEASE_STATUS_NAMES;

type StagedLead = Pick<
  LeaseRequest,
  "status" | "monthlyAmount" | "commission" | "contractTerm" | "lostReason" | "lostNote" | "marketingConsent"
>;

/** "a", "a en b", "a, b en c". */
const listed = (parts: string[]) =>
  parts.length < 2 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} en ${parts.at(-1)}`;

/**
 * What leaving the lead's stage for `to` throws away, in words for a confirmation: the stage and
 * its amounts and reason, and what drops out of the campaign report (offers and contracts count
 * there; a lost lead counts as an offer when it had one). `keepsOffer`: the offer's monthly amount
 * stays (back to offerte).
 */
export function stageLoss(request: StagedLead, to: LeaseStatus): string {
  const keepsOffer = to === "offerte" || to === "verloren";
  const lost: string[] = [];
  if (request.commission !== null && to !== "getekend")
    lost.push(`de commissie van ${formatEuro(request.commission)}`);
  if (request.contractTerm !== null && to !== "getekend")
    lost.push(`de looptijd van ${request.contractTerm} maanden`);
  if (request.monthlyAmount !== null && !keepsOffer && to !== "getekend")
    lost.push(`het maandbedrag van ${formatEuro(request.monthlyAmount)}`);
  if (request.lostReason && to !== "verloren") lost.push(`de reden "${request.lostReason}"`);
  if (request.lostNote && to !== "verloren") lost.push("de toelichting");
  const name = STAGE_NAMES[request.status];
  const sentences = [
    lost.length ? `De fase ${name} vervalt met ${listed(lost)}.` : `De fase ${name} vervalt.`,
  ];
  const offered =
    request.status === "offerte" ||
    request.status === "getekend" ||
    (request.status === "verloren" && request.monthlyAmount !== null);
  const seed = to === "nieuw" || to === "bekeken" || to === "gereageerd";
  const dropsContract = request.status === "getekend" && to !== "getekend";
  if (dropsContract)
    sentences.push(
      seed
        ? "Het contract en de offerte tellen dan niet meer mee in het campagnerapport."
        : "Het contract telt dan niet meer mee in het campagnerapport.",
    );
  else if (offered && seed) sentences.push("De offerte telt dan niet meer mee in het campagnerapport.");
  if (keepsOffer && request.monthlyAmount !== null && request.status !== "offerte")
    sentences.push(`Het maandbedrag van ${formatEuro(request.monthlyAmount)} blijft.`);
  // The platforms were told when the stage was entered; nothing takes it back there.
  if (request.marketingConsent && (dropsContract || (offered && seed)))
    sentences.push("Advertentieplatforms die de offerte of het contract al doorkregen, houden die.");
  return sentences.join(" ");
}

/** "Fase terugzetten": one stage back, the PATCH body that confirms leaving it, and the question. */
export interface MoveBack {
  to: "offerte" | "gereageerd";
  body: UpdateLeaseStatusInput;
  question: string;
}

/**
 * One stage back from the lead's stage: a contract or a lost offer back to the offer (with its
 * monthly amount), an offer (or a stage without one) back to gereageerd. Null outside a stage.
 */
export function moveBackOf(request: StagedLead): MoveBack | null {
  const from = request.status;
  if (from !== "offerte" && from !== "getekend" && from !== "verloren") return null;
  const toOffer = from !== "offerte" && request.monthlyAmount !== null;
  const to = toOffer ? "offerte" : "gereageerd";
  const body: UpdateLeaseStatusInput = toOffer
    ? { status: "offerte", monthlyAmount: request.monthlyAmount!, moveBackFrom: from }
    : { status: "gereageerd", isRead: true, moveBackFrom: from };
  return {
    to,
    body,
    question: `Fase terugzetten naar ${STAGE_NAMES[to]}?\n\n${stageLoss(request, to)}`,
  };
}
