import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  ANALYTICS_CHANNELS,
  channelLabel,
  type AnalyticsChannel,
  type LeaseRequest,
  type LeaseRequestCounts,
  type LeaseStatus,
} from "@lease/contracts";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { userErrorMessage } from "../../api/client";
import { revealDetail } from "../lib/scroll";
import { useNotice } from "../../components/notice";
import {
  ADMIN_KEYS,
  deleteLeaseRequest,
  exportCsvUrl,
  fetchLeaseRequests,
  findLeaseRequest,
  updateLeaseStatus,
  type LeaseRequestFilter,
} from "../api";
import {
  Badge,
  Button,
  buttonClass,
  Counter,
  inputClass,
  LoadingText,
  Pager,
  Panel,
  RefreshFailed,
  Select,
} from "../../components/ui";
import { formatAmsterdamDateTime, formatLeaseTerm } from "../lib/format";
import { amsterdamToday, followUpBadge } from "../lib/follow-up";
import { leaseListTitle, leaseStatusBadge, markReadBody } from "../lib/lease-status";
import { FOLLOW_UP_PARAM, LEAD_PARAM } from "../lib/lead-link";
import { LeaseRequestDetail } from "./LeaseRequestDetail";
import { LeadDeadline, useMinuteClock } from "./LeadResponse";

const PAGE_SIZE = 50;

const STATUS_FILTERS: { value: LeaseStatus | ""; label: string }[] = [
  { value: "", label: "Alle statussen" },
  { value: "nieuw", label: "Nieuw" },
  { value: "bekeken", label: "Bekeken" },
  { value: "gereageerd", label: "Gereageerd" },
  { value: "offerte", label: "Offerte" },
  { value: "getekend", label: "Getekend" },
  { value: "verloren", label: "Verloren" },
];

const CHANNEL_FILTERS: { value: AnalyticsChannel | ""; label: string }[] = [
  { value: "", label: "Alle kanalen" },
  ...ANALYTICS_CHANNELS.map((channel) => ({ value: channel, label: channelLabel(channel) })),
];

const SORTS: { value: "urgency" | ""; label: string }[] = [
  { value: "", label: "Nieuwste eerst" },
  { value: "urgency", label: "Urgentie (te laat eerst)" },
];

export function LeaseRequestsTab() {
  const queryClient = useQueryClient();
  const { notify, notifyError } = useNotice();
  const [filter, setFilter] = useState<LeaseRequestFilter>({
    q: "",
    status: "",
    channel: "",
    campaign: "",
    followUp: "",
    owner: "",
    sort: "",
    page: 1,
    pageSize: PAGE_SIZE,
  });
  const now = useMinuteClock();
  const [search, setSearch] = useState("");
  const [campaign, setCampaign] = useState("");
  const [selected, setSelected] = useState<LeaseRequest | null>(null);
  const detailRef = useRef<HTMLDivElement>(null);

  const list = useQuery({
    queryKey: [...ADMIN_KEYS.leaseRequests, filter],
    queryFn: () => fetchLeaseRequests(filter),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ADMIN_KEYS.leaseRequests });

  const status = useMutation({
    mutationFn: (input: {
      id: string;
      status: "nieuw" | "bekeken" | "gereageerd";
      isRead: boolean;
      silent?: boolean;
    }) => updateLeaseStatus(input.id, { status: input.status, isRead: input.isRead }),
    onSuccess: (updated, input) => {
      setSelected((current) => (current?.id === updated.id ? updated : current));
      if (!input.silent) {
        notify({
          title: "Status Bijgewerkt",
          description: `De aanvraag is gemarkeerd als ${leaseStatusBadge(updated).label}.`,
        });
      }
      void refresh();
    },
    // A lead another admin moved on meanwhile (into a stage): the server refuses and says why; the
    // refreshed list shows where the lead stands now.
    onError: (error, input) => {
      if (!input.silent) notifyError("Status Niet Gewijzigd", error, "Kon de status niet wijzigen");
      void refresh();
    },
  });

  const remove = useMutation({
    mutationFn: (id: string) => deleteLeaseRequest(id),
    onSuccess: () => {
      setSelected(null);
      notify({ title: "Aanvraag Verwijderd", description: "De lease aanvraag is verwijderd." });
      void refresh();
    },
    onError: (error) => notifyError("Fout bij Verwijderen", error, "Er is een fout opgetreden"),
  });

  // Each opening moves focus to the detail's heading once it shows that request, so keyboard and
  // screen-reader users go on in the detail instead of tabbing through the whole list.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [focusHeading, setFocusHeading] = useState(0);
  useEffect(() => {
    if (focusHeading === 0) return;
    const narrow = window.matchMedia("(max-width: 1023px)").matches;
    // On a phone revealDetail scrolls it into view smoothly; focus must not jump there first.
    headingRef.current?.focus({ preventScroll: narrow });
  }, [focusHeading]);

  const open = (request: LeaseRequest) => {
    setSelected(request);
    setFocusHeading((n) => n + 1);
    revealDetail(detailRef.current);
    const readBody = request.isRead ? null : markReadBody(request);
    if (readBody) status.mutate({ id: request.id, ...readBody, silent: true });
  };

  // A link to one request: open it once, then drop the parameter (a reload keeps the tab only).
  const [params, setParams] = useSearchParams();
  const linked = params.get(LEAD_PARAM);
  // ?opvolgen=vandaag (the header's "Bekijk ze"): the list filtered to the follow-ups due, once.
  const followUpLink = params.get(FOLLOW_UP_PARAM) === "vandaag";
  useEffect(() => {
    if (!followUpLink) return;
    setFilter((current) => ({ ...current, followUp: "vandaag", page: 1 }));
    setParams(
      (now) => {
        const next = new URLSearchParams(now);
        next.delete(FOLLOW_UP_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [followUpLink, setParams]);
  const openRef = useRef(open);
  openRef.current = open;
  useEffect(() => {
    if (!linked) return;
    // Not cancelled when the parameter is dropped below: that is this very effect's doing.
    findLeaseRequest(linked).then(
      (request) => {
        if (request) openRef.current(request);
        else
          notify({
            title: "Niet Gevonden",
            description: "Deze aanvraag bestaat niet meer.",
            variant: "destructive",
          });
      },
      (error: unknown) => notifyError("Fout", error, "Kon de aanvraag niet laden"),
    );
    setParams(
      (now) => {
        const next = new URLSearchParams(now);
        next.delete(LEAD_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [linked, notify, setParams]);

  const data = list.data;
  const counts = data?.counts;
  const detail = selected ? (data?.items.find((item) => item.id === selected.id) ?? selected) : null;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  return (
    <div className="space-y-6">
      <LeadCounters counts={counts} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <Panel
          className="lg:col-span-2"
          title={`Lease Aanvragen${data ? ` (${data.total})` : ""}`}
          actions={
            <>
              <Button variant="secondary" onClick={() => void refresh()} disabled={list.isFetching}>
                {list.isFetching ? "Vernieuwen..." : "Vernieuwen"}
              </Button>
              <a className={buttonClass("secondary", "", "small")} href={exportCsvUrl(filter)} download>
                Exporteer CSV
              </a>
            </>
          }
        >
          <form
            className="@container mb-4 space-y-2"
            role="search"
            onSubmit={(event) => {
              event.preventDefault();
              setFilter((current) => ({ ...current, q: search.trim(), campaign: campaign.trim(), page: 1 }));
            }}
          >
            {/* Two filters a row where the list's panel is wide enough, one under the other on a phone:
                never squeezed beside the buttons until the chosen value cannot be read. */}
            {/* What the search looks in, as a line of its own: a placeholder that long was cut off
                beside the button at every width. */}
            <div className="flex gap-2">
              <label className="sr-only" htmlFor="lease-zoeken">
                Zoeken
              </label>
              <input
                id="lease-zoeken"
                type="search"
                aria-describedby="lease-zoeken-uitleg"
                maxLength={200}
                className={`${inputClass("admin")} mt-0 min-w-0 flex-1`}
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
              <Button type="submit" variant="secondary">
                Zoeken
              </Button>
            </div>
            <p id="lease-zoeken-uitleg" className="text-xs text-gray-600">
              Op e-mail, bedrijf, telefoon of auto-URL
            </p>
            <div className="grid grid-cols-1 gap-2 @sm:grid-cols-2">
              <label className="sr-only" htmlFor="lease-status-filter">
                Status
              </label>
              <Select
                id="lease-status-filter"
                className="mt-0"
                value={filter.status}
                onChange={(status) => setFilter((current) => ({ ...current, status, page: 1 }))}
                options={STATUS_FILTERS}
              />
              <label className="sr-only" htmlFor="lease-channel-filter">
                Kanaal
              </label>
              <Select
                id="lease-channel-filter"
                className="mt-0"
                value={filter.channel}
                onChange={(channel) => setFilter((current) => ({ ...current, channel, page: 1 }))}
                options={CHANNEL_FILTERS}
              />
              <label className="sr-only" htmlFor="lease-campaign-filter">
                Campagne
              </label>
              <input
                id="lease-campaign-filter"
                type="search"
                placeholder="Campagne"
                maxLength={100}
                className={`${inputClass("admin")} mt-0`}
                value={campaign}
                onChange={(event) => setCampaign(event.target.value)}
              />
              <Button
                variant="secondary"
                aria-pressed={filter.followUp === "vandaag"}
                className={filter.followUp === "vandaag" ? "ring-2 ring-primary/40" : ""}
                onClick={() =>
                  setFilter((current) => ({
                    ...current,
                    followUp: current.followUp === "vandaag" ? "" : "vandaag",
                    page: 1,
                  }))
                }
              >
                Vandaag opvolgen{counts ? ` (${counts.followUpDue})` : ""}
              </Button>
              <Button
                variant="secondary"
                aria-pressed={filter.owner === "me"}
                className={filter.owner === "me" ? "ring-2 ring-primary/40" : ""}
                onClick={() =>
                  setFilter((current) => ({ ...current, owner: current.owner === "me" ? "" : "me", page: 1 }))
                }
              >
                Mijn aanvragen
              </Button>
              <label className="sr-only" htmlFor="lease-sort">
                Sorteren
              </label>
              <Select
                id="lease-sort"
                className="mt-0"
                value={filter.sort}
                onChange={(sort) => setFilter((current) => ({ ...current, sort, page: 1 }))}
                options={SORTS}
              />
            </div>
          </form>
          {list.isError && data && (
            <RefreshFailed
              message={userErrorMessage(list.error, "Kon de aanvragen niet laden")}
              what="aanvragen"
            />
          )}
          {list.isPending ? (
            <LoadingText />
          ) : list.isError && !data ? (
            <p className="py-8 text-center text-red-700">
              {userErrorMessage(list.error, "Kon de aanvragen niet laden")}
            </p>
          ) : data && data.items.length === 0 ? (
            filter.q ||
            filter.status ||
            filter.followUp ||
            filter.channel ||
            filter.campaign ||
            filter.owner ? (
              <div className="py-8 text-center text-gray-600" data-testid="no-matches">
                <p>Geen lease aanvragen gevonden voor deze zoekopdracht.</p>
                <Button
                  variant="secondary"
                  className="mt-3"
                  onClick={() => {
                    setSearch("");
                    setCampaign("");
                    setFilter((current) => ({
                      ...current,
                      q: "",
                      status: "",
                      followUp: "",
                      channel: "",
                      campaign: "",
                      owner: "",
                      page: 1,
                    }));
                  }}
                >
                  Zoekopdracht wissen
                </Button>
              </div>
            ) : (
              <p className="py-8 text-center text-gray-600">Nog geen lease aanvragen ontvangen</p>
            )
          ) : (
            <ul className="max-h-[32rem] space-y-2 overflow-y-auto pr-1" data-testid="lease-list">
              {data?.items.map((request) => (
                <LeaseListItem
                  key={request.id}
                  request={request}
                  active={detail?.id === request.id}
                  now={now}
                  onOpen={() => open(request)}
                />
              ))}
            </ul>
          )}
          {data && lastPage > 1 && (
            <Pager
              page={filter.page}
              lastPage={lastPage}
              onPage={(page) => setFilter((current) => ({ ...current, page }))}
            />
          )}
        </Panel>
        <div className="lg:col-span-3" ref={detailRef}>
          <LeaseRequestDetail
            headingRef={headingRef}
            request={detail}
            busy={status.isPending || remove.isPending}
            onStatus={(next) => detail && status.mutate({ id: detail.id, status: next, isRead: true })}
            onUpdated={setSelected}
            onDelete={() => {
              if (detail && window.confirm("Weet je zeker dat je deze aanvraag wilt verwijderen?"))
                remove.mutate(detail.id);
            }}
          />
        </div>
      </div>
    </div>
  );
}

function LeaseListItem({
  request,
  active,
  now,
  onOpen,
}: {
  request: LeaseRequest;
  active: boolean;
  now: Date;
  onOpen: () => void;
}) {
  const badge = leaseStatusBadge(request);
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        data-testid="lease-item"
        data-unread={!request.isRead}
        aria-current={active || undefined}
        className={`w-full rounded-card border p-3 text-left transition-colors ${
          active
            ? "border-primary ring-2 ring-primary/30"
            : request.isRead
              ? "border-gray-200 bg-white hover:bg-gray-50"
              : "border-red-200 bg-red-50 hover:bg-red-100"
        }`}
      >
        <div className="flex items-start justify-between gap-2">
          <span className={`wrap-anywhere ${request.isRead ? "font-medium" : "font-bold"} text-gray-900`}>
            {leaseListTitle(request)}
          </span>
          <Badge tone={badge.tone}>{badge.label}</Badge>
        </div>
        <p className="mt-1 text-sm wrap-anywhere text-gray-700">
          {request.email}
          {/* A bounce or drop (SendGrid's Event Webhook): the address does not work, staff call instead. */}
          {request.emailUndeliverable && (
            <span className="ml-2 align-middle" data-testid="email-undeliverable">
              <Badge tone="red">E-mailadres werkt niet: bellen</Badge>
            </span>
          )}
        </p>
        <div className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-gray-600">
          <span>{formatAmsterdamDateTime(request.createdAt)}</span>
          <span>{formatLeaseTerm(request.leaseTerm)}</span>
          <span>{request.contactNumber}</span>
          {request.duplicateOf && <Badge tone="blue">Mogelijk dubbel</Badge>}
          {request.followUpOn && <FollowUpBadge day={request.followUpOn} />}
        </div>
        <div className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-gray-700">
          <span data-testid="lead-owner">
            {request.owner ? `Eigenaar: ${request.owner.username}` : "Nog niet toegewezen"}
          </span>
          <LeadDeadline request={request} now={now} />
        </div>
      </button>
    </li>
  );
}

function FollowUpBadge({ day }: { day: string }) {
  const badge = followUpBadge(day, amsterdamToday());
  return <Badge tone={badge.tone}>{badge.label}</Badge>;
}

/**
 * One counter per badge, the stages included, and the total they add up to (README "Counters"):
 * each counts the requests that carry its badge, so an opened new request counts under Bekeken.
 */
/** Narrower padding than the other tabs' counters: seven fit a row at 1280 px, three on a phone. */
const TILE = "max-sm:p-3 xl:px-3";

function LeadCounters({ counts }: { counts: LeaseRequestCounts | undefined }) {
  const tiles: { key: keyof LeaseRequestCounts; label: string; tone?: string; hint: string }[] = [
    { key: "nieuw", label: "Nieuwe Aanvragen", tone: "text-red-600", hint: "Nog niet geopend" },
    { key: "bekeken", label: "Bekeken", tone: "text-yellow-700", hint: "Geopend, nog niet gereageerd" },
    { key: "gereageerd", label: "Gereageerd", tone: "text-green-600", hint: "Als gereageerd gemarkeerd" },
    { key: "offerte", label: "Offerte", tone: "text-blue-700", hint: "Offerte verstuurd" },
    { key: "getekend", label: "Getekend", tone: "text-green-700", hint: "Contract getekend" },
    { key: "verloren", label: "Verloren", hint: "Niet doorgegaan" },
    { key: "waiting", label: "Wachten op reactie", tone: "text-yellow-700", hint: "Nog geen eerste reactie" },
    { key: "overdue", label: "Te laat", tone: "text-red-700", hint: "Reactietermijn verstreken" },
  ];
  return (
    // Three a row on a phone (the list stays near), seven in one row on a wide screen.
    <div
      className="grid grid-cols-3 gap-2 sm:grid-cols-5 sm:gap-3 xl:grid-cols-9"
      data-testid="lead-counters"
    >
      {tiles.map((tile) => (
        <Counter
          key={tile.key}
          label={tile.label}
          value={counts?.[tile.key] ?? "-"}
          tone={tile.tone}
          hint={tile.hint}
          className={TILE}
        />
      ))}
      <Counter
        label="Totaal"
        value={counts?.total ?? "-"}
        hint="Alle aanvragen, alle fases samen"
        className={`${TILE} max-sm:col-span-3 sm:max-xl:col-span-5`}
      />
    </div>
  );
}
