import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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
import { ApiError, fieldErrors, userErrorMessage } from "../../api/client";
import { useNotice } from "../../components/notice";
import { ADMIN_KEYS, addAdSpend, fetchAdSpend, importAdSpend, linkSpendCampaign } from "../api";
import {
  Button,
  inputClass,
  LoadingText,
  Panel,
  Select,
  STACKED_CELL,
  STACKED_ROW,
  STACKED_TABLE,
} from "../../components/ui";
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
  const upload = useMutation({
    mutationFn: async (file: File) => importAdSpend(await fileText(file)),
    onSuccess: (answer) => {
      setResult({ ok: answer, errors: answer.errors });
      notify({
        title: "Kosten Ingelezen",
        description: `${answer.imported} ${answer.imported === 1 ? "dag" : "dagen"} ingelezen, ${answer.unchanged} ongewijzigd.`,
      });
      refresh();
    },
    // Kept beside the field, as the lines' errors are, until the next import (not in a notice
    // that disappears before the file is fixed).
    onError: (error) => {
      const body = error instanceof ApiError ? ImportErrors.safeParse(error.body) : null;
      setResult({
        ok: null,
        errors: body?.success ? body.data.errors : [],
        fileError: userErrorMessage(error, "Kon het bestand niet inlezen"),
      });
    },
  });
  const [file, setFile] = useState<File | null>(null);

  return (
    <Panel title="Advertentiekosten">
      <div className="space-y-6">
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (file) upload.mutate(file);
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
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            />
          </div>
          <Button type="submit" disabled={!file || upload.isPending}>
            {upload.isPending ? "Inlezen..." : "Importeren"}
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
          <div className="sm:overflow-x-auto">
            <table
              role="table"
              className={`w-full text-left text-sm ${STACKED_TABLE}`}
              data-testid="spend-list"
            >
              <caption className="mb-2 text-left text-gray-600 max-sm:block">
                Kosten per campagne van {periodInWords(from, to)}
              </caption>
              <thead role="rowgroup" className="max-sm:sr-only">
                <tr role="row" className="border-b border-gray-200 text-gray-600">
                  {SPEND_COLUMNS.map((column, i) => (
                    <th
                      key={column}
                      role="columnheader"
                      scope="col"
                      className={`py-2 pr-3 ${i === 2 ? "text-right" : ""}`}
                    >
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody role="rowgroup" className={STACKED_TABLE}>
                {list.data.items.map((item) => (
                  <SpendRow key={`${item.platform}-${item.campaign}`} item={item} onLinked={refresh} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </Panel>
  );
}

const SPEND_COLUMNS = ["Platform", "Campagne", "Kosten", "Telt voor utm_campaign"] as const;

function SpendRow({ item, onLinked }: { item: AdSpendCampaign; onLinked: () => void }) {
  const { notify, notifyError } = useNotice();
  const [utm, setUtm] = useState(item.utmCampaign);
  const link = useMutation({
    mutationFn: () =>
      linkSpendCampaign({
        platform: item.platform,
        campaign: item.campaign,
        utmCampaign: utm.trim() || null,
      }),
    onSuccess: () => {
      notify({
        title: "Koppeling Opgeslagen",
        description: `${item.campaign} telt voor ${utm.trim() || item.campaign}.`,
      });
      onLinked();
    },
    onError: (error) => notifyError("Fout bij Opslaan", error, "Kon de koppeling niet opslaan"),
  });
  const id = `utm-${item.platform}-${item.campaign}`.replace(/[^\w-]/g, "_");
  return (
    <tr role="row" className={`border-b border-gray-100 ${STACKED_ROW}`} data-testid="spend-row">
      <td role="cell" data-label={SPEND_COLUMNS[0]} className={`py-2 pr-3 ${STACKED_CELL}`}>
        {AD_PLATFORM_LABELS[item.platform]}
      </td>
      <td role="cell" data-label={SPEND_COLUMNS[1]} className={`py-2 pr-3 break-words ${STACKED_CELL}`}>
        {item.campaign}
      </td>
      <td
        role="cell"
        data-label={SPEND_COLUMNS[2]}
        className={`py-2 pr-3 whitespace-nowrap sm:text-right ${STACKED_CELL}`}
      >
        {formatEuro(item.amount)}
      </td>
      <td role="cell" data-label={SPEND_COLUMNS[3]} className={`py-2 sm:min-w-[18rem] ${STACKED_CELL}`}>
        <form
          className="flex gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            link.mutate();
          }}
        >
          <label htmlFor={id} className="sr-only">
            utm_campaign van {item.campaign}
          </label>
          <input
            id={id}
            className={`${inputClass("admin")} mt-0 min-w-0 flex-1`}
            maxLength={100}
            value={utm}
            onChange={(event) => setUtm(event.target.value)}
          />
          <Button type="submit" variant="secondary" className="shrink-0" disabled={link.isPending}>
            Koppelen
          </Button>
        </form>
      </td>
    </tr>
  );
}

function ManualSpendForm({ onSaved }: { onSaved: () => void }) {
  const { notify } = useNotice();
  const [platform, setPlatform] = useState<AdPlatform>("meta");
  const [day, setDay] = useState(amsterdamToday());
  const [campaign, setCampaign] = useState("");
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (euros: number) => addAdSpend({ platform, day, campaign: campaign.trim(), amount: euros }),
    onSuccess: () => {
      setError(undefined);
      setAmount("");
      notify({
        title: "Kosten Opgeslagen",
        description: `${campaign.trim()}: ${amount} op ${formatDay(day)}.`,
      });
      onSaved();
    },
    onError: (failure) => {
      const fields = fieldErrors(failure);
      setError(Object.values(fields)[0] ?? userErrorMessage(failure, "Kon de kosten niet opslaan"));
    },
  });
  return (
    <form
      className="grid gap-2 sm:grid-cols-5"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const euros = parseEuroInput(amount);
        if (!campaign.trim()) setError("Vul de campagnenaam in");
        else if (euros === null) setError("Vul het bedrag in, bijvoorbeeld 125,50");
        else save.mutate(euros);
      }}
    >
      <h3 className="text-sm font-semibold text-gray-800 sm:col-span-5">Kosten van een dag invoeren</h3>
      <Select
        aria-label="Platform"
        className="mt-0"
        value={platform}
        onChange={setPlatform}
        options={AD_PLATFORMS.map((p) => ({ value: p, label: AD_PLATFORM_LABELS[p] }))}
      />
      <input
        aria-label="Dag"
        type="date"
        className={`${inputClass("admin")} mt-0`}
        value={day}
        onChange={(event) => setDay(event.target.value)}
      />
      <input
        aria-label="Campagne"
        placeholder="Campagne"
        maxLength={200}
        className={`${inputClass("admin")} mt-0`}
        value={campaign}
        onChange={(event) => setCampaign(event.target.value)}
      />
      <input
        aria-label="Bedrag (€)"
        placeholder="0,00"
        inputMode="decimal"
        className={`${inputClass("admin")} mt-0`}
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
      />
      <Button type="submit" variant="secondary" disabled={save.isPending}>
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
