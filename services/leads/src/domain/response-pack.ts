import { ANALYTICS_CHANNELS, type JobSource } from "@lease/contracts";

// The response report's leads of one Amsterdam week and kind, packed: one fixed-width record per
// lead (little-endian), its owner and campaign as indexes into the week's own lists. Everything the
// report counts and measures is in a record, so a report reads ~105 weeks instead of every lead.
//   0 u8  day of the week (0 = Monday), Amsterdam time
//   1 u8  flags: answered, answered within the deadline, answered after it, has a deadline
//   2 u8  channel: index in ANALYTICS_CHANNELS, 255 none (no known visit, or a channel not listed)
//   4 u16 owner: index in `owners`, 65535 nobody
//   6 u16 campaign: index in `campaigns`, 65535 none
//   8 i32 working minutes to the first response, -1 none
//  12 i32 clock minutes to the first response, -1 none
//  16 f64 the deadline (ms since the epoch), NaN none

export const RECORD_BYTES = 24;
export const NONE8 = 255;
export const NONE16 = 65_535;
export const FLAG = { answered: 1, within: 2, late: 4, due: 8 } as const;

/** A lead as the report sees it (read from its row). */
export interface ReportLead {
  day: number;
  ownerId: string | null;
  channel: string | null;
  campaign: string | null;
  answered: boolean;
  /** Answered no later than the deadline. */
  within: boolean;
  /** Answered after the deadline. */
  lateAnswer: boolean;
  dueAt: Date | null;
  workingMinutes: number | null;
  clockMinutes: number | null;
}

export interface PackedWeek {
  kind: JobSource;
  /** The Monday, "YYYY-MM-DD". */
  week: string;
  owners: string[];
  campaigns: string[];
  records: Buffer;
}

const CHANNEL_INDEX = new Map<string, number>(ANALYTICS_CHANNELS.map((c, i) => [c, i]));

function indexer(list: string[]) {
  const at = new Map<string, number>();
  return (value: string | null): number => {
    if (value === null) return NONE16;
    let i = at.get(value);
    if (i === undefined) {
      i = list.push(value) - 1;
      if (i >= NONE16) throw new Error("more than 65534 owners or campaigns in one week");
      at.set(value, i);
    }
    return i;
  };
}

export function packWeek(kind: JobSource, week: string, leads: readonly ReportLead[]): PackedWeek {
  const owners: string[] = [];
  const campaigns: string[] = [];
  const owner = indexer(owners);
  const campaign = indexer(campaigns);
  const records = Buffer.alloc(leads.length * RECORD_BYTES);
  leads.forEach((lead, i) => {
    const at = i * RECORD_BYTES;
    const flags =
      (lead.answered ? FLAG.answered : 0) |
      (lead.within ? FLAG.within : 0) |
      (lead.lateAnswer ? FLAG.late : 0) |
      (lead.dueAt ? FLAG.due : 0);
    records.writeUInt8(lead.day, at);
    records.writeUInt8(flags, at + 1);
    records.writeUInt8(lead.channel === null ? NONE8 : (CHANNEL_INDEX.get(lead.channel) ?? NONE8), at + 2);
    records.writeUInt16LE(owner(lead.ownerId), at + 4);
    records.writeUInt16LE(campaign(lead.campaign), at + 6);
    records.writeInt32LE(lead.workingMinutes ?? -1, at + 8);
    records.writeInt32LE(lead.clockMinutes ?? -1, at + 12);
    records.writeDoubleLE(lead.dueAt ? lead.dueAt.getTime() : NaN, at + 16);
  });
  return { kind, week, owners, campaigns, records };
}
