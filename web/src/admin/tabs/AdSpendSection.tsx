import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  AD_PLATFORM_LABELS,
  AD_PLATFORMS,
  AdSpendImportError,
  type AdPlatform,
  type AdSpendCampaign,
  type AdSpendImportResult,
} from "@lease/contracts";
import { useState } from "react";
import { z } from "zod";
import { ApiError, userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, addAdSpend, fetchAdSpend, importAdSpend, linkSpendCampaign } from "../api";
import {
  Button,
  inputClass,
  LoadingText,
  Panel,
  Select,
  Table,
  TableCell,
  TableRow,
} from "../../components/ui";
import { hasErrors, useForm, type FormErrors } from "../../lib/use-form";
import { formatEuro, parseEuroInput } from "../lib/format";
import { amsterdamToday, formatDay } from "../lib/follow-up";
import { periodInWords } from "../lib/periods";
import { countOf } from "../lib/wording";

const ImportErrors = z.object({ errors: z.array(AdSpendImportError) });

/** A file's text: UTF-16 when it says so (Google Ads' Excel export), else UTF-8. */
export async function fileText(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  const encoding = utf16 ? (bytes[0] === 0xff ? "utf-16le" : "utf-16be") : "utf-8";
  return new TextDecoder(encoding).decode(bytes);
}

/** What the last import did: its counts, the lines it skipped, or why it read nothing of the file. */
interface ImportOutcome {
  ok: AdSpendImportResult | null;
  errors: AdSpendImportError[];
  /** The whole file refused (an unknown export, another currency, no rows): the server's words. */
  fileError?: string;
}

const IMPORT_OUTCOME_ID = "kosten-bestand-uitkomst";

/**
 * Ad spend: import a platform's export, type a day in, and link a spend name to its utm_campaign.
 * The list covers the campaign report's period.
 */
export function AdSpendSection({ period }: { period: { from: string; to: string } }) {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const { from, to } = period;
  const list = useQuery({
    queryKey: [...ADMIN_KEYS.adSpend, from, to],
    queryFn: () => fetchAdSpend(from, to),
    staleTime: 0,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.adSpend });
    void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.campaignReport });
  };
  const [result, setResult] = useState<ImportOutcome | null>(null);
  // The outcome is kept beside the field, as the lines' errors are, until the next import (not in a
  // notice that disappears before the file is fixed).
  const upload = useForm({
    initial: { file: null as File | null },
    keepValues: true,
    submit: async ({ file }) => importAdSpend(await fileText(file!)),
    onSuccess: (answer) => {
      setResult({ ok: answer, errors: answer.errors });
      notify({
        title: "Kosten Ingelezen",
        description: `${answer.imported} ${answer.imported === 1 ? "dag" : "dagen"} ingelezen, ${answer.unchanged} ongewijzigd.`,
      });
      refresh();
    },
    serverErrors: () => ({}),
    onFailed: (error) => {
      const body = error instanceof ApiError ? ImportErrors.safeParse(error.body) : null;
      setResult({
        ok: null,
        errors: body?.success ? body.data.errors : [],
        fileError: userErrorMessage(error, "Kon het bestand niet inlezen"),
      });
    },
  });
  const file = upload.values.file;

  return (
    <Panel title="Advertentiekosten">
      <div className="space-y-6">
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (file) void upload.submit();
          }}
        >
          <div className="flex-1">
            <label htmlFor="kosten-bestand" className="text-sm font-medium text-gray-700">
              Export van Meta, TikTok, Snapchat of Google Ads (csv)
            </label>
            <input
              id="kosten-bestand"
              type="file"
              accept=".csv,.tsv,.txt,text/csv"
              className={inputClass("admin")}
              aria-describedby={result ? IMPORT_OUTCOME_ID : undefined}
              aria-invalid={result?.fileError ? true : undefined}
              onChange={(event) => upload.set("file", event.target.files?.[0] ?? null)}
            />
          </div>
          <Button type="submit" disabled={!file || upload.pending}>
            {upload.pending ? "Inlezen..." : "Importeren"}
          </Button>
        </form>
        {result && (
          <div id={IMPORT_OUTCOME_ID} data-testid="spend-import-result" className="text-sm text-gray-800">
            {result.fileError && (
              <p className="font-medium text-red-700" role="alert" data-testid="spend-import-error">
                Fout bij inlezen: {result.fileError}
              </p>
            )}
            {result.ok && (
              <p>
                {AD_PLATFORM_LABELS[result.ok.platform]}: {result.ok.imported} ingelezen,{" "}
                {result.ok.unchanged} ongewijzigd
                {result.errors.length
                  ? `, ${countOf(result.errors.length, "regel", "regels")} overgeslagen`
                  : ""}
                .
              </p>
            )}
            {result.errors.length > 0 && (
              <ul className="mt-2 list-disc pl-5 text-red-700">
                {result.errors.slice(0, 50).map((error) => (
                  <li key={error.line}>
                    Regel {error.line}: {error.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        <ManualSpendForm onSaved={refresh} />
        {list.isPending ? (
          <LoadingText />
        ) : list.isError ? (
          <p className="text-red-700">{userErrorMessage(list.error, "Kon de kosten niet laden")}</p>
        ) : list.data.items.length === 0 ? (
          <p className="text-gray-600">Geen advertentiekosten van {periodInWords(from, to)}.</p>
        ) : (
          // On a phone each campaign is a block of labelled lines, its link field the width of the
          // screen; the roles keep it a table for screen readers.
          <Table
            regionClassName="sm:overflow-x-auto"
            className="w-full text-left text-sm"
            data-testid="spend-list"
            caption={
              <caption className="mb-2 text-left text-gray-600 max-sm:block">
                Kosten per campagne van {periodInWords(from, to)}
              </caption>
            }
            head={SPEND_COLUMNS}
            headRowClassName="border-b border-gray-200 text-gray-600"
            headCellClassName={(i) => `py-2 pr-3 ${i === 2 ? "text-right" : ""}`}
          >
            {list.data.items.map((item) => (
              <SpendRow key={`${item.platform}-${item.campaign}`} item={item} onLinked={refresh} />
            ))}
          </Table>
        )}
      </div>
    </Panel>
  );
}

const SPEND_COLUMNS = ["Platform", "Campagne", "Kosten", "Telt voor utm_campaign"] as const;

function SpendRow({ item, onLinked }: { item: AdSpendCampaign; onLinked: () => void }) {
  const { notify } = useNotice();
  const link = useForm({
    initial: { utm: item.utmCampaign },
    keepValues: true,
    submit: ({ utm }) =>
      linkSpendCampaign({
        platform: item.platform,
        campaign: item.campaign,
        utmCampaign: utm.trim() || null,
      }),
    onSuccess: (_answer, { utm }) => {
      notify({
        title: "Koppeling Opgeslagen",
        description: `${item.campaign} telt voor ${utm.trim() || item.campaign}.`,
      });
      onLinked();
    },
    serverErrors: () => ({}),
    failure: { title: "Fout bij Opslaan", fallback: "Kon de koppeling niet opslaan" },
  });
  const id = `utm-${item.platform}-${item.campaign}`.replace(/[^\w-]/g, "_");
  return (
    <TableRow className="border-b border-gray-100" data-testid="spend-row">
      <TableCell label={SPEND_COLUMNS[0]} className="py-2 pr-3">
        {AD_PLATFORM_LABELS[item.platform]}
      </TableCell>
      <TableCell label={SPEND_COLUMNS[1]} className="py-2 pr-3 break-words">
        {item.campaign}
      </TableCell>
      <TableCell label={SPEND_COLUMNS[2]} className="py-2 pr-3 whitespace-nowrap sm:text-right">
        {formatEuro(item.amount)}
      </TableCell>
      <TableCell label={SPEND_COLUMNS[3]} className="py-2 sm:min-w-[18rem]">
        <form className="flex gap-2" onSubmit={link.onSubmit}>
          <label htmlFor={id} className="sr-only">
            utm_campaign van {item.campaign}
          </label>
          <input
            id={id}
            className={`${inputClass("admin")} mt-0 min-w-0 flex-1`}
            maxLength={100}
            value={link.values.utm}
            onChange={(event) => link.set("utm", event.target.value)}
          />
          <Button type="submit" variant="secondary" className="shrink-0" disabled={link.pending}>
            Koppelen
          </Button>
        </form>
      </TableCell>
    </TableRow>
  );
}

function ManualSpendForm({ onSaved }: { onSaved: () => void }) {
  const { notify } = useNotice();
  // After a save the platform, day and campaign stay for the next day's amount.
  const form = useForm({
    initial: { platform: "meta" as AdPlatform, day: amsterdamToday(), campaign: "", amount: "" },
    validate: ({ campaign, amount }): FormErrors =>
      !campaign.trim()
        ? { campaign: "Vul de campagnenaam in" }
        : parseEuroInput(amount) === null
          ? { amount: "Vul het bedrag in, bijvoorbeeld 125,50" }
          : {},
    keepValues: true,
    submit: ({ platform, day, campaign, amount }) =>
      addAdSpend({ platform, day, campaign: campaign.trim(), amount: parseEuroInput(amount)! }),
    onSuccess: (_answer, { day, campaign, amount }) => {
      form.set("amount", "");
      notify({
        title: "Kosten Opgeslagen",
        description: `${campaign.trim()}: ${amount} op ${formatDay(day)}.`,
      });
      onSaved();
    },
    onFailed: (failure, fields) => {
      if (!hasErrors(fields))
        form.setErrors({ form: userErrorMessage(failure, "Kon de kosten niet opslaan") });
    },
  });
  const { platform, day, campaign, amount } = form.values;
  // One message at a time, the first the form or the server found.
  const error = Object.values(form.errors).find(Boolean);
  return (
    <form className="grid gap-2 sm:grid-cols-5" noValidate onSubmit={form.onSubmit}>
      <h3 className="text-sm font-semibold text-gray-800 sm:col-span-5">Kosten van een dag invoeren</h3>
      <Select
        aria-label="Platform"
        className="mt-0"
        value={platform}
        onChange={(next) => form.set("platform", next)}
        options={AD_PLATFORMS.map((p) => ({ value: p, label: AD_PLATFORM_LABELS[p] }))}
      />
      <input
        aria-label="Dag"
        type="date"
        className={`${inputClass("admin")} mt-0`}
        value={day}
        onChange={(event) => form.set("day", event.target.value)}
      />
      <input
        aria-label="Campagne"
        placeholder="Campagne"
        maxLength={200}
        className={`${inputClass("admin")} mt-0`}
        value={campaign}
        onChange={(event) => form.set("campaign", event.target.value)}
      />
      <input
        aria-label="Bedrag (€)"
        placeholder="0,00"
        inputMode="decimal"
        className={`${inputClass("admin")} mt-0`}
        value={amount}
        onChange={(event) => form.set("amount", event.target.value)}
      />
      <Button type="submit" variant="secondary" disabled={form.pending}>
        Opslaan
      </Button>
      {error && (
        <p className="text-sm font-medium text-red-700 sm:col-span-5" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
