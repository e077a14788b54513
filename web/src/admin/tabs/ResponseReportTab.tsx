import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { RESPONSE_REPORT_DAYS_MAX, daysInPeriod, dutchDay } from "@lease/contracts";
import { useState } from "react";
import { userErrorMessage } from "../../api/client";
import { ADMIN_KEYS, fetchResponseReport, responseReportCsvUrl } from "../api";
import {
  Button,
  buttonClass,
  LoadingText,
  Panel,
  Select,
  Table,
  TableCell,
  TableRow,
} from "../../components/ui";
import { DateRange } from "../components/DateRange";
import { amsterdamToday, rangeProblem } from "../lib/periods";
import {
  FIGURE_COLUMNS,
  RESPONSE_PERIODS,
  duration,
  reportSections,
  responsePeriod,
  share,
  type FiguresRow,
  type ResponsePeriod,
} from "../lib/response-report";

/** "Reactietijden": how the promised response times were kept, per week, owner, channel and campaign. */
export function ResponseReportTab() {
  const today = amsterdamToday();
  const [preset, setPreset] = useState<ResponsePeriod>("4w");
  const [period, setPeriod] = useState(() => responsePeriod("4w", today));
  const [draft, setDraft] = useState(period);
  const report = useQuery({
    queryKey: [...ADMIN_KEYS.responseReport, period],
    queryFn: () => fetchResponseReport(period.from, period.to),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const data = report.data;
  const refreshing = report.isFetching && !report.isPending;
  // The own period checked here as the API checks it, so the admin reads why before asking.
  const draftProblem =
    rangeProblem(draft, today) ??
    (daysInPeriod(draft.from, draft.to) > RESPONSE_REPORT_DAYS_MAX
      ? "Kies een periode van hoogstens twee jaar"
      : null);

  return (
    <Panel
      title="Reactietijden"
      actions={
        data && !report.isPlaceholderData ? (
          <a
            className={buttonClass("secondary", "", "small")}
            href={responseReportCsvUrl(data.from, data.to)}
            download
          >
            Download CSV
          </a>
        ) : (
          <Button variant="secondary" disabled>
            Download CSV
          </Button>
        )
      }
    >
      <p className="mb-3 text-sm text-gray-600">
        Hoe snel offerteaanvragen een eerste reactie kregen (een verstuurde e-mail, een gesprek dat de klant
        bereikte of de status Gereageerd), in werktijd en in kloktijd, en hoeveel binnen de belofte.
      </p>
      <form
        className="mb-3 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!draftProblem) setPeriod(draft);
        }}
      >
        <label className="text-sm font-medium text-gray-700">
          Periode
          <Select
            value={preset}
            onChange={(next) => {
              setPreset(next);
              if (next !== "eigen") {
                const chosen = responsePeriod(next, today);
                setPeriod(chosen);
                setDraft(chosen);
              }
            }}
            options={RESPONSE_PERIODS}
          />
        </label>
        {preset === "eigen" && (
          <>
            <DateRange
              value={draft}
              max={today}
              onChange={(range) => setDraft((d) => ({ ...d, ...range }))}
            />
            <Button type="submit" variant="secondary" disabled={draftProblem !== null}>
              Toon
            </Button>
          </>
        )}
      </form>
      {preset === "eigen" && draftProblem && (
        <p className="mb-3 text-sm text-red-700" role="alert">
          {draftProblem}
        </p>
      )}
      {data && (
        <p className="mb-3 text-sm text-gray-600" data-testid="response-period">
          {dutchDay(data.from)} t/m {dutchDay(data.to)}
        </p>
      )}
      {refreshing && (
        <p className="mb-2 text-sm text-gray-600" role="status">
          Cijfers worden bijgewerkt...
        </p>
      )}
      {report.isPending ? (
        <LoadingText />
      ) : report.isError ? (
        <p className="text-red-700">
          {userErrorMessage(report.error, "Kon het rapport met reactietijden niet laden")}
        </p>
      ) : data ? (
        <div
          className={`space-y-6 transition-opacity ${refreshing ? "opacity-50" : ""}`}
          aria-busy={refreshing || undefined}
        >
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" data-testid="response-totals">
            <Total label="Aanvragen" value={String(data.totals.leads)} />
            <Total label="Beantwoord" value={String(data.totals.answered)} />
            <Total label="Binnen belofte" value={share(data.totals.withinPromiseShare)} />
            <Total label="Nooit beantwoord" value={String(data.totals.unanswered)} />
            <Total label="Mediaan (werktijd)" value={duration(data.totals.medianMinutes)} />
            <Total label="Mediaan (kloktijd)" value={duration(data.totals.medianClockMinutes)} />
          </dl>
          {reportSections(data).map((section) => (
            <FiguresSection key={section.id} id={section.id} title={section.title} rows={section.rows} />
          ))}
          {data.otherCampaigns && (
            <p className="text-sm text-gray-600">
              Nog {data.otherCampaigns.campaigns} campagnes met samen {data.otherCampaigns.leads} aanvragen
              staan niet in de lijst (alleen de 100 met de meeste aanvragen).
            </p>
          )}
        </div>
      ) : null}
    </Panel>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-card border border-gray-200 p-3">
      <dt className="text-xs text-gray-600">{label}</dt>
      <dd className="text-lg font-semibold text-gray-900">{value}</dd>
    </div>
  );
}

/** One grouping: a table on a wide screen, a card per row on a phone. */
function FiguresSection({ id, title, rows }: { id: string; title: string; rows: FiguresRow[] }) {
  return (
    <section aria-labelledby={`reactie-${id}`} data-testid={`response-${id}`}>
      <h3 id={`reactie-${id}`} className="mb-2 font-semibold text-gray-900">
        {title}
      </h3>
      {rows.length === 0 ? (
        <p className="text-sm text-gray-600">Geen aanvragen in deze periode.</p>
      ) : (
        <>
          <ul className="space-y-3 md:hidden" aria-label={title}>
            {rows.map((row) => (
              <li
                key={row.key}
                className="rounded-card border border-gray-200 p-3 text-sm"
                data-testid="response-card"
              >
                <p className="font-semibold text-gray-900 wrap-anywhere">{row.label}</p>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                  {FIGURE_COLUMNS.map((column) => (
                    <div key={column.key} className="contents">
                      <dt className="text-gray-600">{column.label}</dt>
                      <dd className="text-gray-900" data-column={column.key}>
                        {column.cell(row.figures)}
                      </dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
          {/* From md up the table (the cards above stand in below md). */}
          <Table
            regionClassName="hidden overflow-x-auto md:block"
            className="w-full text-right text-sm"
            head={[
              title.replace("Per ", "").replace(/^./, (c) => c.toUpperCase()),
              ...FIGURE_COLUMNS.map((column) => column.label),
            ]}
            headRowClassName="border-b border-gray-200 text-gray-600"
            headCellClassName={(i) => (i === 0 ? "py-2 pr-3 text-left" : "py-2 pr-3")}
          >
            {rows.map((row) => (
              <TableRow key={row.key} className="border-b border-gray-100" data-testid="response-row">
                <th
                  role="rowheader"
                  scope="row"
                  className="py-2 pr-3 text-left font-medium text-gray-900 wrap-anywhere"
                >
                  {row.label}
                </th>
                {FIGURE_COLUMNS.map((column) => (
                  <TableCell
                    key={column.key}
                    label={column.label}
                    className="py-2 pr-3 whitespace-nowrap"
                    data-column={column.key}
                  >
                    {column.cell(row.figures)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </Table>
        </>
      )}
    </section>
  );
}
