import {
  ErrorCode,
  InternalPrivacyErased,
  InternalPrivacyFound,
  PRIVACY_KINDS,
  PRIVACY_KIND_LABELS,
  type PrivacyKind,
  type PrivacyRecord,
  type PrivacySummary,
} from "@lease/contracts";
import { HttpError, INTERNAL_TOKEN_HEADER, injectTraceHeaders, type Logger } from "@lease/platform";
import { asUpstreamError, markIfRefused, orderTargets, type Upstream } from "../routes/proxy";

// People's data (AVG), orchestrated here because the gateway owns the audit log: each service
// finds and erases what it holds (its own tables and the jobs of the queue it consumes) behind
// /internal/privacy/*; the gateway only asks, adds up and records.

export type PrivacyServices = Record<"leads" | "mailer" | "tracking", Upstream>;
export type PrivacyData = Record<PrivacyKind, PrivacyRecord[]>;

const SERVICE_LABELS: Record<keyof PrivacyServices, string> = {
  leads: "de aanvragen",
  mailer: "de e-mail",
  tracking: "de bezoekstatistieken",
};

/** The column that dates a row of each kind (as the services store it). */
const DATE_COLUMN: Record<PrivacyKind, string> = {
  leaseRequests: "created_at",
  contactMessages: "created_at",
  notes: "created_at",
  statusChanges: "changed_at",
  inboxEmails: "created_at",
  sentEmails: "created_at",
  conversions: "occurred_at",
};

/** Which service answers each kind. */
const KINDS_OF: Record<keyof PrivacyServices, readonly PrivacyKind[]> = {
  leads: ["leaseRequests", "contactMessages", "notes", "statusChanges"],
  mailer: ["inboxEmails", "sentEmails"],
  tracking: ["conversions"],
};

export class PrivacyIncomplete extends HttpError {
  constructor(message: string) {
    super(502, "privacy_incomplete", message);
  }
}

export const STAFF_ADDRESS_ERROR = "privacy_staff_address";
export const STAFF_ADDRESS_MESSAGE =
  "Dit is de gebruikersnaam van een beheerder. Gegevens van het team worden niet via Privacy " +
  "gezocht, geëxporteerd of gewist; zoek op het adres van de persoon die erom vraagt.";

/** A service's refusal of the address itself (e.g. the company's own address): passed on as is. */
function refusal(status: number, text: string): HttpError | null {
  if (status !== 422) return null;
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    const code = ErrorCode.safeParse(body.code);
    if (code.success && typeof body.message === "string") return new HttpError(422, code.data, body.message);
  } catch {
    // not a refusal the service wrote: a failure like any other
  }
  return null;
}

export function privacyDomain(deps: {
  services: PrivacyServices;
  /** Whether the address is an admin's (the team's addresses are refused). */
  isStaffAddress: (email: string) => Promise<boolean>;
  internalToken: string;
  timeoutMs: number;
  logger: Logger;
}) {
  /** POSTs to one replica of a service (the next only when one refused the connection). */
  async function call(service: keyof PrivacyServices, path: string, body: unknown, failure: string) {
    const payload = JSON.stringify(body);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(payload)),
      accept: "application/json",
      [INTERNAL_TOKEN_HEADER]: deps.internalToken,
    };
    injectTraceHeaders(headers);
    let problem = "";
    for (const target of orderTargets(deps.services[service])) {
      try {
        const res = await target.pool.request({
          method: "POST",
          path,
          headers,
          body: payload,
          headersTimeout: deps.timeoutMs,
          bodyTimeout: deps.timeoutMs,
        });
        const text = await res.body.text();
        if (res.statusCode === 200) return JSON.parse(text) as unknown;
        const refused = refusal(res.statusCode, text);
        if (refused) throw refused;
        problem = `status ${res.statusCode}`;
        break;
      } catch (err) {
        if (err instanceof HttpError) throw err;
        const e = asUpstreamError(err);
        problem = e.code ?? e.message;
        if (!markIfRefused(target, e)) break;
      }
    }
    // The address never goes into the log: the service, the path and what went wrong do.
    deps.logger.warn({ service, path, problem }, "privacy call failed");
    throw new PrivacyIncomplete(
      `${failure}: ${SERVICE_LABELS[service]} gaf geen antwoord. Probeer het opnieuw.`,
    );
  }

  const find = async (service: keyof PrivacyServices, body: unknown) =>
    InternalPrivacyFound.parse(
      await call(service, "/internal/privacy/find", body, "Niet alles kon worden opgezocht"),
    );

  async function refuseStaff(email: string): Promise<void> {
    if (await deps.isStaffAddress(email))
      throw new HttpError(422, STAFF_ADDRESS_ERROR, STAFF_ADDRESS_MESSAGE);
  }

  async function leadIdsOf(
    email: string,
  ): Promise<{ leads: Record<string, PrivacyRecord[]>; ids: string[] }> {
    await refuseStaff(email);
    const leads = await find("leads", { email });
    const ids = [...(leads.leaseRequests ?? []), ...(leads.contactMessages ?? [])].map((r) => String(r.id));
    return { leads, ids };
  }

  return {
    /**
     * Everything about the address (rows where it is the person's own field, and what belongs to
     * their leads), per kind, as each service stores it. The team's and the company's own
     * addresses are refused (422) before anything is read.
     */
    async collect(email: string): Promise<PrivacyData> {
      const { leads, ids } = await leadIdsOf(email);
      const [mailer, tracking] = await Promise.all([
        find("mailer", { email, leadIds: ids }),
        find("tracking", { email, leadIds: ids }),
      ]);
      const answers = { leads, mailer, tracking };
      const data = {} as PrivacyData;
      for (const [service, kinds] of Object.entries(KINDS_OF))
        for (const kind of kinds) data[kind] = answers[service as keyof PrivacyServices][kind] ?? [];
      return data;
    },

    summarize(data: PrivacyData): PrivacySummary {
      const kinds = PRIVACY_KINDS.map((kind) => {
        const dates = data[kind]
          .map((row) => row[DATE_COLUMN[kind]])
          .filter((v): v is string => typeof v === "string")
          .map((v) => new Date(v).toISOString())
          .sort();
        return { kind, count: data[kind].length, first: dates[0] ?? null, last: dates.at(-1) ?? null };
      });
      return { total: kinds.reduce((n, k) => n + k.count, 0), kinds };
    },

    /**
     * Erases the address everywhere: the mailer first (it refuses the company's own addresses
     * before anything changes), then tracking (both are told the person's lead ids, which only
     * leads can find), leads last, so a retry after a failure still finds the leads and finishes.
     * Each service removes what is about the person and replaces the address with "[gewist]"
     * where it is merely mentioned. Each part is idempotent. Answers the counts removed.
     * `forgetIds` runs after the mailer accepted the address and before leads goes, with the lead
     * ids (the gateway's own references to them: the audit log), while leads can still name them.
     */
    async erase(
      email: string,
      forgetIds?: (ids: string[]) => Promise<Record<string, number>>,
    ): Promise<Record<string, number>> {
      const { ids } = await leadIdsOf(email);
      const body = { email, leadIds: ids };
      const failure = "Het wissen is niet afgerond (wat al gewist is, blijft gewist)";
      const erase = async (service: keyof PrivacyServices) =>
        InternalPrivacyErased.parse(await call(service, "/internal/privacy/erase", body, failure));
      const mailer = await erase("mailer");
      const forgotten = forgetIds ? await forgetIds(ids) : {};
      const tracking = await erase("tracking");
      const leads = await erase("leads");
      const removed: Record<string, number> = { ...forgotten };
      for (const part of [leads, mailer, tracking])
        for (const [kind, n] of Object.entries(part)) removed[kind] = (removed[kind] ?? 0) + n;
      return removed;
    },
  };
}
export type PrivacyDomain = ReturnType<typeof privacyDomain>;

const EXTRA_LABELS: Record<string, string> = {
  outbox: "wachtrijregels",
  jobs: "wachtrijtaken",
  mentions: "vermeldingen in andere aanvragen, notities en e-mails (vervangen door [gewist])",
  auditEntries: "logboekregels zonder adres",
};

/** The audit log's detail: counts only, never the address ("Offerteaanvragen: 2, ..."). */
export function describeCounts(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${PRIVACY_KIND_LABELS[kind as PrivacyKind] ?? EXTRA_LABELS[kind] ?? kind}: ${n}`);
  return parts.length === 0 ? "niets gevonden" : parts.join(", ");
}
