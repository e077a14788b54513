import {
  LEAD_STAGES,
  LEASE_STATUS_NAMES,
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

/** Why a status change is refused (409): the stable code and the Dutch message. */
export interface StageRefusal {
  code: "stage_move_back_unconfirmed" | "stage_changed_meanwhile";
  message: string;
}

/**
 * A lead in a stage goes back to nieuw, bekeken or gereageerd only by "Fase terugzetten", which
 * names the stage it confirmed to leave (`moveBackFrom`); a status button, or a screen that no longer
 * shows the lead's stage, is refused, so a misclick never drops an offer or a contract.
 */
export function moveBackRefusal(before: LeaseStatus, body: UpdateLeaseStatusBody): StageRefusal | null {
  const confirmed = "moveBackFrom" in body ? body.moveBackFrom : undefined;
  if (confirmed !== undefined && confirmed !== before)
    return {
      code: "stage_changed_meanwhile",
      message: `Deze aanvraag staat inmiddels op ${LEASE_STATUS_NAMES[before]}, niet meer op ${LEASE_STATUS_NAMES[confirmed]}. Open de aanvraag opnieuw en kijk wat er vervalt.`,
    };
  if (confirmed === undefined && isStage(before) && !isStage(body.status))
    return {
      code: "stage_move_back_unconfirmed",
      message: `Deze aanvraag staat op ${LEASE_STATUS_NAMES[before]}. Terug naar ${LEASE_STATUS_NAMES[body.status]} kan alleen met "Fase terugzetten" in de aanvraag, na bevestiging van wat er vervalt.`,
    };
  return null;
}

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

/**
 * The audit log's detail: the change and its amounts and reason; never the note (free text). A stage
 * moved back also names what it dropped ("vervallen: maandbedrag € 489,00").
 */
export function stageAuditDetail(before: LeadStage, after: LeadStage, movedBack = false): string {
  const parts = [`${before.status} → ${after.status}`];
  if (after.status === "offerte" || after.status === "getekend") {
    if (after.commissionCents !== null) parts.push(`commissie ${euroText(after.commissionCents)}`);
    if (after.monthlyAmountCents !== null) parts.push(`maandbedrag ${euroText(after.monthlyAmountCents)}`);
    if (after.contractTerm !== null) parts.push(`looptijd ${after.contractTerm} maanden`);
  }
  if (after.lostReason) parts.push(`reden ${after.lostReason}`);
  if (movedBack) {
    const dropped: string[] = [];
    if (before.commissionCents !== null && after.commissionCents === null)
      dropped.push(`commissie ${euroText(before.commissionCents)}`);
    if (before.monthlyAmountCents !== null && after.monthlyAmountCents === null)
      dropped.push(`maandbedrag ${euroText(before.monthlyAmountCents)}`);
    if (before.contractTerm !== null && after.contractTerm === null)
      dropped.push(`looptijd ${before.contractTerm} maanden`);
    if (before.lostReason && !after.lostReason) dropped.push(`reden ${before.lostReason}`);
    if (dropped.length) parts.push(`vervallen: ${dropped.join(", ")}`);
  }
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
