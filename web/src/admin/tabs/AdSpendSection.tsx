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
import { Button, LoadingText, Panel, TEXT_INPUT } from "../../components/ui";
import { formatEuro, parseEuroInput } from "../lib/format";
import { amsterdamToday, formatDay } from "../lib/follow-up";

const ImportErrors = z.object({ errors: z.array(AdSpendImportError) });

/** A file's text: UTF-16 when it says so (Google Ads' Excel export), else UTF-8. */
export async function fileText(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  const encoding = utf16 ? (bytes[0] === 0xff ? "utf-16le" : "utf-16be") : "utf-8";
  return new TextDecoder(encoding).decode(bytes);
}

/** The first day of the month before this one: the spend list's period starts there. */
function periodStart(today: string): string {
  const [y, m] = today.split("-").map(Number) as [number, number];
  const month = m === 1 ? 12 : m - 1;
  return `${m === 1 ? y - 1 : y}-${String(month).padStart(2, "0")}-01`;
}

/** Ad spend: import a platform's export, type a day in, and link a spend name to its utm_campaign. */
export function AdSpendSection() {
  const queryClient = useQueryClient();
  const { notify } = useNotice();
  const today = amsterdamToday();
  const from = periodStart(today);
  const list = useQuery({
    queryKey: [...ADMIN_KEYS.adSpend, from, today],
    queryFn: () => fetchAdSpend(from, today),
    staleTime: 0,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.adSpend });
    void queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.campaignReport });
  };
  const [result, setResult] = useState<{
    ok: AdSpendImportResult | null;
    errors: AdSpendImportError[];
  } | null>(null);
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
    onError: (error) => {
      const body = error instanceof ApiError ? ImportErrors.safeParse(error.body) : null;
      setResult({ ok: null, errors: body?.success ? body.data.errors : [] });
      notify({
        title: "Fout bij Inlezen",
        description: userErrorMessage(error, "Kon het bestand niet inlezen"),
        variant: "destructive",
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
              className={TEXT_INPUT}
              onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            />
          </div>
          <Button type="submit" disabled={!file || upload.isPending}>
            {upload.isPending ? "Inlezen..." : "Importeren"}
          </Button>
        </form>
        {result && (
          <div data-testid="spend-import-result" className="text-sm text-gray-800">
            {result.ok && (
              <p>
                {AD_PLATFORM_LABELS[result.ok.platform]}: {result.ok.imported} ingelezen,{" "}
                {result.ok.unchanged} ongewijzigd
                {result.errors.length ? `, ${result.errors.length} regels overgeslagen` : ""}.
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
          <p className="text-gray-600">Nog geen advertentiekosten sinds {from}.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="spend-list">
              <caption className="mb-2 text-left text-gray-600">Kosten per campagne sinds {from}</caption>
              <thead>
                <tr className="border-b border-gray-200 text-gray-600">
                  <th scope="col" className="py-2 pr-3">
                    Platform
                  </th>
                  <th scope="col" className="py-2 pr-3">
                    Campagne
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    Kosten
                  </th>
                  <th scope="col" className="py-2">
                    Telt voor utm_campaign
                  </th>
                </tr>
              </thead>
              <tbody>
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

function SpendRow({ item, onLinked }: { item: AdSpendCampaign; onLinked: () => void }) {
  const { notify } = useNotice();
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
    onError: (error) =>
      notify({
        title: "Fout bij Opslaan",
        description: userErrorMessage(error, "Kon de koppeling niet opslaan"),
        variant: "destructive",
      }),
  });
  const id = `utm-${item.platform}-${item.campaign}`.replace(/[^\w-]/g, "_");
  return (
    <tr className="border-b border-gray-100" data-testid="spend-row">
      <td className="py-2 pr-3">{AD_PLATFORM_LABELS[item.platform]}</td>
      <td className="py-2 pr-3 wrap-anywhere">{item.campaign}</td>
      <td className="py-2 pr-3 text-right whitespace-nowrap">{formatEuro(item.amount)}</td>
      <td className="py-2">
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
            className={`${TEXT_INPUT} mt-0`}
            maxLength={100}
            value={utm}
            onChange={(event) => setUtm(event.target.value)}
          />
          <Button type="submit" variant="secondary" disabled={link.isPending}>
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
      <select
        aria-label="Platform"
        className={`${TEXT_INPUT} mt-0`}
        value={platform}
        onChange={(event) => setPlatform(event.target.value as AdPlatform)}
      >
        {AD_PLATFORMS.map((p) => (
          <option key={p} value={p}>
            {AD_PLATFORM_LABELS[p]}
          </option>
        ))}
      </select>
      <input
        aria-label="Dag"
        type="date"
        className={`${TEXT_INPUT} mt-0`}
        value={day}
        onChange={(event) => setDay(event.target.value)}
      />
      <input
        aria-label="Campagne"
        placeholder="Campagne"
        maxLength={200}
        className={`${TEXT_INPUT} mt-0`}
        value={campaign}
        onChange={(event) => setCampaign(event.target.value)}
      />
      <input
        aria-label="Bedrag (€)"
        placeholder="0,00"
        inputMode="decimal"
        className={`${TEXT_INPUT} mt-0`}
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
