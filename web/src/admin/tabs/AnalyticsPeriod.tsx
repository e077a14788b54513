import { channelLabel, type AnalyticsFilter } from "@lease/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useSearchParams } from "react-router-dom";
import { ADMIN_KEYS, fetchAnalytics } from "../api";
import { Button, LoadError, LoadingText, Panel, Table, TableCell, TableRow } from "../../components/ui";
import { DateRange } from "../components/DateRange";
import { pageLabel } from "../lib/live";
import {
  PERIOD_PRESETS,
  amsterdamToday,
  describePeriod,
  periodFromParams,
  rangeProblem,
  withPeriod,
  type ChosenPeriod,
} from "../lib/periods";
import { filterChips, filterFromParams, filterQuery, isFiltered, withFilter } from "../lib/analytics-filter";
import { Breakdowns, UNATTRIBUTED_HELP, UNATTRIBUTED_LABEL, formatRate } from "./Breakdowns";
import { countOf, describeChange } from "../lib/wording";
import { Legend, PAGE_VIEWS_COLOR, VISITORS_COLOR, VisitorChart } from "./VisitorChart";

/** How often a period that includes today is read again while live updates arrive. */
const LIVE_REFRESH_MS = 3000;
const number = new Intl.NumberFormat("nl-NL");
const TOP_PAGES_HEAD = ["Pagina", "Weergaven", "Bezoekers"] as const;

/** The period the URL names, and a way to choose another (which goes into the URL). */
function usePeriod(): [ChosenPeriod, (period: ChosenPeriod) => void] {
  const [params, setParams] = useSearchParams();
  const period = periodFromParams(params, amsterdamToday());
  return [period, (next) => setParams(withPeriod(params, next))];
}

/** The filter the URL names, and a way to change it (a new history entry: Back undoes it). */
function useFilter(): [AnalyticsFilter, (filter: AnalyticsFilter) => void] {
  const [params, setParams] = useSearchParams();
  return [filterFromParams(params), (next) => setParams(withFilter(params, next))];
}

/**
 * Visitors and page views of a chosen period (Vandaag ... 12 maanden, or an own range): totals,
 * the chart and the most viewed pages, all from GET /api/admin/analytics. `liveTick` changes with
 * every live update; a period that includes today is then read again (at most every 3 s).
 */
export function AnalyticsPeriod({ liveTick }: { liveTick: number }) {
  const [period, setPeriod] = usePeriod();
  const [filter, setFilter] = useFilter();
  const filtered = isFiltered(filter);
  const query = filterQuery(filter);
  const today = amsterdamToday();
  const analytics = useQuery({
    queryKey: [...ADMIN_KEYS.analytics, period.from, period.to, query],
    queryFn: () => fetchAnalytics(period.from, period.to, query),
    staleTime: 0,
    retry: false,
  });
  const queryClient = useQueryClient();
  const lastRefresh = useRef(0);
  useEffect(() => {
    if (period.to !== today) return;
    const refresh = () => {
      lastRefresh.current = Date.now();
      void queryClient.invalidateQueries({ queryKey: [...ADMIN_KEYS.analytics, period.from, period.to] });
    };
    const wait = lastRefresh.current + LIVE_REFRESH_MS - Date.now();
    if (wait <= 0) return refresh();
    // An update within the interval is read at its end, not dropped: the page views a visit
    // brings reach the rollups a moment after the visit itself is announced.
    const timer = setTimeout(refresh, wait);
    return () => clearTimeout(timer);
  }, [liveTick, period.from, period.to, today, queryClient]);

  const data = analytics.data;
  const unattributed = data ? data.unattributed.quotes + data.unattributed.contacts : 0;
  const description = describePeriod(period.from, period.to);
  return (
    <>
      <Panel
        title="Bezoekers en paginaweergaven"
        className="lg:col-span-3"
        actions={<PeriodPicker period={period} today={today} onChange={setPeriod} />}
      >
        <p className="mb-2 text-sm text-gray-600" data-testid="analytics-period">
          {description}
        </p>
        {filtered && (
          <FilterChips
            filter={filter}
            onChange={setFilter}
            note={
              period.from !== period.to
                ? "Met een filter telt Bezoekers de bezoeken per dag op: wie op meer dagen komt, telt per dag."
                : undefined
            }
          />
        )}
        {analytics.isError ? (
          <LoadError query={analytics} fallback="De grafiek kon niet worden geladen." />
        ) : !data ? (
          <LoadingText />
        ) : (
          <>
            <div className="mb-2 flex flex-wrap gap-4 text-sm text-gray-700" data-testid="analytics-totals">
              <Legend color={VISITORS_COLOR} label={`Bezoekers (${number.format(data.totals.visitors)})`} />
              <Legend
                color={PAGE_VIEWS_COLOR}
                label={`Paginaweergaven (${number.format(data.totals.pageViews)})`}
              />
              <span data-testid="analytics-conversions">
                Conversies: {number.format(data.totals.conversions)} (
                {countOf(data.totals.quotes, "offerteaanvraag", "offerteaanvragen")},{" "}
                {countOf(data.totals.contacts, "contactbericht", "contactberichten")};{" "}
                {formatRate(data.totals.conversionRate)})
                {unattributed > 0 && (
                  <span title={UNATTRIBUTED_HELP}>
                    , waarvan {number.format(unattributed)} met {UNATTRIBUTED_LABEL.toLowerCase()}
                  </span>
                )}
              </span>
            </div>
            <p className="mb-2 text-xs text-gray-600" data-testid="analytics-change">
              {describeChange(describePeriod(data.previous.from, data.previous.to), data.change)}
            </p>
            <VisitorChart
              series={data.series}
              bucket={data.bucket}
              label={`Bezoekers en paginaweergaven, ${description}`}
            />
          </>
        )}
      </Panel>
      {data && <Breakdowns data={data} onFilter={(more) => setFilter({ ...filter, ...more })} />}
      <Panel title="Populaire pagina's">
        {!data ? (
          analytics.isError ? null : (
            <LoadingText />
          )
        ) : filtered ? (
          <p className="text-gray-600" data-testid="top-pages-filtered">
            Niet beschikbaar met een filter: weergaven per pagina worden niet per bezoek bewaard. Zie
            Landingspagina&apos;s.
          </p>
        ) : data.topPages.length === 0 ? (
          <p className="text-gray-600">Nog geen paginaweergaven</p>
        ) : (
          <Table
            regionClassName=""
            className="w-full text-left text-sm"
            data-testid="top-pages"
            head={TOP_PAGES_HEAD}
            headClassName="text-gray-600"
            headCellClassName={(i) =>
              i === 0 ? "py-1 pr-3 font-medium" : `py-1 text-right font-medium ${i === 1 ? "pr-3" : ""}`
            }
            bodyClassName="divide-y divide-gray-100"
          >
            {data.topPages.map((page) => (
              <TableRow key={page.page}>
                <TableCell
                  line
                  label={TOP_PAGES_HEAD[0]}
                  className="py-1 pr-3 text-gray-900 sm:max-w-[12rem] sm:truncate"
                  title={page.page}
                >
                  {pageLabel(page.page)}
                </TableCell>
                <TableCell
                  line
                  label={TOP_PAGES_HEAD[1]}
                  className="py-1 pr-3 font-semibold text-gray-700 sm:text-right"
                >
                  {number.format(page.views)}
                </TableCell>
                <TableCell line label={TOP_PAGES_HEAD[2]} className="py-1 text-gray-700 sm:text-right">
                  {number.format(page.visitors)}
                </TableCell>
              </TableRow>
            ))}
          </Table>
        )}
      </Panel>
    </>
  );
}

/** The filter's parts as chips ("Filter: kanaal Betaald zoeken ✕"), each removable on its own. */
function FilterChips({
  filter,
  onChange,
  note,
}: {
  filter: AnalyticsFilter;
  onChange: (filter: AnalyticsFilter) => void;
  note?: string;
}) {
  const chips = filterChips(filter, { channel: channelLabel, page: pageLabel });
  return (
    <div className="mb-2" data-testid="analytics-filter">
      <ul className="flex flex-wrap gap-2" aria-label="Actieve filters">
        {chips.map((chip) => (
          <li
            key={chip.key}
            className="flex items-center gap-1 rounded-full bg-blue-50 py-0.5 pl-3 pr-1 text-sm text-blue-900"
          >
            <span>Filter: {chip.label}</span>
            <button
              type="button"
              className="rounded-full px-1.5 leading-5 hover:bg-blue-100 focus-visible:bg-blue-100"
              aria-label={`Filter ${chip.label} verwijderen`}
              onClick={() => onChange(chip.without)}
            >
              <span aria-hidden="true">✕</span>
            </button>
          </li>
        ))}
      </ul>
      {note && <p className="mt-1 text-xs text-gray-600">{note}</p>}
    </div>
  );
}

function PeriodPicker({
  period,
  today,
  onChange,
}: {
  period: ChosenPeriod;
  today: string;
  onChange: (period: ChosenPeriod) => void;
}) {
  const [own, setOwn] = useState(period.preset === "eigen");
  const [from, setFrom] = useState(period.from);
  const [to, setTo] = useState(period.to);
  const [problem, setProblem] = useState("");
  const id = useId();
  useEffect(() => {
    setFrom(period.from);
    setTo(period.to);
    if (period.preset === "eigen") setOwn(true);
  }, [period.from, period.to, period.preset]);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const found = rangeProblem({ from, to }, today);
    if (found) return setProblem(found);
    setProblem("");
    onChange({ preset: "eigen", from, to });
  };

  return (
    <div className="flex flex-col items-end gap-2">
      <div className="flex flex-wrap justify-end gap-2" role="group" aria-label="Periode">
        {PERIOD_PRESETS.map((preset) => (
          <Button
            key={preset.value}
            variant={!own && period.preset === preset.value ? "primary" : "secondary"}
            aria-pressed={!own && period.preset === preset.value}
            onClick={() => {
              setOwn(false);
              setProblem("");
              onChange({ preset: preset.value, from: "", to: "" });
            }}
          >
            {preset.label}
          </Button>
        ))}
        <Button variant={own ? "primary" : "secondary"} aria-pressed={own} onClick={() => setOwn(true)}>
          Eigen periode
        </Button>
      </div>
      {own && (
        <form className="flex flex-wrap items-end justify-end gap-2" onSubmit={apply} noValidate>
          <DateRange
            id={id}
            look="compact"
            value={{ from, to }}
            max={today}
            onChange={(range) => {
              setFrom(range.from);
              setTo(range.to);
            }}
          />
          <Button type="submit">Toepassen</Button>
          {problem && (
            <p className="w-full text-right text-sm text-red-700" role="alert">
              {problem}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
