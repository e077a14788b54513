import {
  LEAD_STAGES,
  euroText,
  toCents,
  type LeaseStatus,
  type StageJobData,
  type UpdateLeaseStatusBody,
} from "@lease/contracts";

/** A lead's status and the stage fields that go with it (amounts in whole cents). */
export interface LeadStage {
  status: LeaseStatus;
  monthlyAmountCents: number | null;
  commissionCents: number | null;
  contractTerm: number | null;
  lostReason: string | null;
  lostNote: string | null;
}

const STAGES: readonly string[] = LEAD_STAGES;
export const isStage = (status: string): boolean => STAGES.includes(status);

/**
 * The lead's stage after a status change. Back to nieuw, bekeken or gereageerd is a correction and
 * clears the stage fields; getekend keeps the offer's monthly amount unless a new one is given;
 * verloren keeps the monthly amount of the offer that was lost.
 */
export function nextStage(before: LeadStage, body: UpdateLeaseStatusBody): LeadStage {
  const cleared = {
    monthlyAmountCents: null,
    commissionCents: null,
    contractTerm: null,
    lostReason: null,
    lostNote: null,
  };
  switch (body.status) {
    case "offerte":
      return { ...cleared, status: body.status, monthlyAmountCents: toCents(body.monthlyAmount) };
    case "getekend":
      return {
        ...cleared,
        status: body.status,
        commissionCents: toCents(body.commission),
        monthlyAmountCents:
          body.monthlyAmount === undefined ? before.monthlyAmountCents : toCents(body.monthlyAmount),
        contractTerm: body.term ?? null,
      };
    case "verloren":
      return {
        ...cleared,
        status: body.status,
        monthlyAmountCents: before.monthlyAmountCents,
        lostReason: body.lostReason,
        lostNote: body.note ?? null,
      };
    default:
      return { ...cleared, status: body.status };
  }
}

/** Whether anything of the stage changed (a new status, or new amounts at the same stage). */
export function stageChanged(before: LeadStage, after: LeadStage): boolean {
  return (Object.keys(after) as (keyof LeadStage)[]).some((key) => before[key] !== after[key]);
}

/** The audit log's detail: the change and its amounts and reason; never the note (free text). */
export function stageAuditDetail(before: LeadStage, after: LeadStage): string {
  const parts = [`${before.status} → ${after.status}`];
  if (after.status === "offerte" || after.status === "getekend") {
    if (after.commissionCents !== null) parts.push(`commissie ${euroText(after.commissionCents)}`);
    if (after.monthlyAmountCents !== null) parts.push(`maandbedrag ${euroText(after.monthlyAmountCents)}`);
    if (after.contractTerm !== null) parts.push(`looptijd ${after.contractTerm} maanden`);
  }
  if (after.lostReason) parts.push(`reden ${after.lostReason}`);
  return parts.join(", ");
}

/** What tracking counts for the lead's campaign: an offer, a contract and its commission. */
export function funnelOf(stage: LeadStage): Pick<StageJobData, "offered" | "signed" | "commissionCents"> {
  const signed = stage.status === "getekend";
  return {
    offered:
      stage.status === "offerte" ||
      signed ||
      (stage.status === "verloren" && stage.monthlyAmountCents !== null),
    signed,
    commissionCents: signed ? (stage.commissionCents ?? 0) : 0,
  };
}
