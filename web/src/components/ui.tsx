// The building blocks of the public pages and, below them, of the admin panel: one set, one file.
import { Suspense, cloneElement, isValidElement, type ComponentProps, type ReactNode } from "react";
import { userErrorMessage } from "../api/client";
import { fieldAria } from "./form";

type ButtonVariant = "primary" | "accent" | "outline" | "light";

const BUTTON_BASE =
  "inline-flex items-center justify-center gap-2 rounded-button px-6 py-3 text-base font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60";

const BUTTON_VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-primary-strong text-white hover:bg-primary-hover-strong",
  accent: "bg-accent-strong text-white hover:brightness-95",
  outline: "border-2 border-primary text-primary-strong hover:bg-primary-strong hover:text-white",
  light: "border-2 border-white text-white hover:bg-white hover:text-ink",
};

export function buttonClass(variant: ButtonVariant = "primary", extra = ""): string {
  return `${BUTTON_BASE} ${BUTTON_VARIANTS[variant]} ${extra}`.trim();
}

export function Section({
  id,
  className = "",
  children,
  labelledBy,
}: {
  id?: string;
  className?: string;
  children: ReactNode;
  labelledBy?: string;
}) {
  return (
    <section id={id} aria-labelledby={labelledBy} className={`px-4 py-16 sm:px-6 lg:py-20 ${className}`}>
      {/* A hydration boundary: React hydrates a long page section by section and yields in between. */}
      <div className="mx-auto max-w-6xl">
        <Suspense fallback={null}>{children}</Suspense>
      </div>
    </section>
  );
}

export function SectionHeading({ id, title, intro }: { id?: string; title: string; intro?: ReactNode }) {
  return (
    <div className="mx-auto mb-10 max-w-3xl text-center">
      <h2 id={id} className="text-3xl font-bold text-ink sm:text-4xl">
        {title}
      </h2>
      {intro && <p className="mt-4 text-lg text-muted">{intro}</p>}
    </div>
  );
}

export function Card({ className = "", children, ...rest }: ComponentProps<"div">) {
  return (
    <div className={`rounded-card border border-gray-200 bg-white p-6 shadow-sm ${className}`} {...rest}>
      {children}
    </div>
  );
}

/** A green tick list, as used for benefits and inclusions. */
export function CheckList({ items, className = "" }: { items: ReactNode[]; className?: string }) {
  return (
    <ul className={`space-y-3 ${className}`}>
      {items.map((item, index) => (
        <li key={index} className="flex gap-3 text-ink">
          <CheckIcon />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

export function CheckIcon({ className = "text-accent" }: { className?: string }) {
  return (
    <svg
      className={`mt-0.5 h-5 w-5 shrink-0 ${className}`}
      viewBox="0 0 20 20"
      fill="currentColor"
      aria-hidden="true"
    >
      <path
        fillRule="evenodd"
        d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0z"
        clipRule="evenodd"
      />
    </svg>
  );
}

export function CrossIcon() {
  return (
    <svg
      className="mt-0.5 h-5 w-5 shrink-0 text-red-600"
      viewBox="0 0 20 20"
      fill="currentColor"
      aria-hidden="true"
    >
      <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4z" />
    </svg>
  );
}

/** On a phone each row becomes a block whose cells carry their column's name (STACKED_CELL). */
export const STACKED_TABLE = "max-sm:block";
export const STACKED_ROW = "max-sm:block max-sm:py-2";
export const STACKED_CELL =
  "max-sm:block max-sm:py-1 max-sm:before:block max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:font-sans max-sm:before:text-ink max-sm:before:content-[attr(data-label)]";

/** The column names of a stacked table: a header row from sm up, read by screen readers only below. */
export function StackedHead(props: { head: readonly string[]; className: string; cellClassName: string }) {
  return (
    <thead role="rowgroup" className={`${props.className} max-sm:sr-only`}>
      <tr role="row">
        {props.head.map((cell) => (
          <th key={cell} role="columnheader" scope="col" className={props.cellClassName}>
            {cell}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * A table with a caption for screen readers. From the sm breakpoint it is a table (scrolling
 * sideways if it must); on a phone each row is a block of labelled cells, readable at 375 px
 * without scrolling sideways. The ARIA roles keep it a table for screen readers in both layouts.
 */
export function DataTable({ caption, head, rows }: { caption: string; head: string[]; rows: ReactNode[][] }) {
  return (
    // Focusable so keyboard users can scroll a table that is wider than its column.
    <div
      className="overflow-x-auto rounded-card border border-gray-200"
      tabIndex={0}
      role="region"
      aria-label={caption}
    >
      <table
        role="table"
        className={`w-full border-collapse text-left text-sm sm:min-w-[32rem] ${STACKED_TABLE}`}
      >
        <caption className="sr-only">{caption}</caption>
        <StackedHead head={head} className="bg-gray-50 text-ink" cellClassName="px-4 py-3 font-semibold" />
        <tbody role="rowgroup" className={`divide-y divide-gray-200 ${STACKED_TABLE}`}>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex} role="row" className={`align-top ${STACKED_ROW}`}>
              {row.map((cell, cellIndex) =>
                cellIndex === 0 ? (
                  <th
                    key={cellIndex}
                    role="rowheader"
                    scope="row"
                    className="px-4 py-3 font-medium text-ink max-sm:block max-sm:pb-1 max-sm:text-base"
                  >
                    {cell}
                  </th>
                ) : (
                  <td
                    key={cellIndex}
                    role="cell"
                    data-label={head[cellIndex]}
                    className={`px-4 py-3 text-muted ${STACKED_CELL}`}
                  >
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The gradient hero at the top of every content page. */
export function PageHero({
  title,
  intro,
  children,
}: {
  title: string;
  intro: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="bg-hero px-4 py-16 text-white sm:px-6 lg:py-24">
      <div className="mx-auto max-w-4xl text-center">
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">{title}</h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-white/90 sm:text-xl">{intro}</p>
        {children && <div className="mt-8 flex flex-col justify-center gap-4 sm:flex-row">{children}</div>}
      </div>
    </section>
  );
}

/** Stat tile: a big figure and its caption. */
export function Stat({ value, label }: { value: string; label: string }) {
  return (
    <div className="rounded-card bg-white p-6 text-center shadow-sm ring-1 ring-gray-200">
      <p className="text-3xl font-bold text-primary-strong sm:text-4xl">{value}</p>
      <p className="mt-2 text-sm font-medium text-muted">{label}</p>
    </div>
  );
}

/** A grid of cards that each hold a title and a short text. */
export function CardGrid({
  items,
  className = "sm:grid-cols-2 lg:grid-cols-3",
}: {
  items: { title: string; text: string }[];
  className?: string;
}) {
  return (
    <div className={`grid gap-6 ${className}`}>
      {items.map((item) => (
        <Card key={item.title}>
          <h3 className="text-lg font-semibold text-ink">{item.title}</h3>
          <p className="mt-2 text-muted">{item.text}</p>
        </Card>
      ))}
    </div>
  );
}

// The admin panel: smaller buttons, panels, badges, counters and settings fields.

export type BadgeTone = "red" | "yellow" | "green" | "blue" | "gray" | "plain";

const TONES: Record<BadgeTone, string> = {
  red: "bg-red-100 text-red-800 ring-red-200",
  yellow: "bg-yellow-100 text-yellow-800 ring-yellow-200",
  green: "bg-green-100 text-green-800 ring-green-200",
  blue: "bg-blue-100 text-blue-800 ring-blue-200",
  gray: "bg-gray-100 text-gray-700 ring-gray-200",
  plain: "text-gray-700 ring-transparent",
};

/** `wrap`: a badge of a sentence may break over lines (on a phone) instead of running off the page. */
export function Badge({
  tone,
  children,
  wrap = false,
}: {
  tone: BadgeTone;
  children: ReactNode;
  wrap?: boolean;
}) {
  return (
    <span
      data-testid="badge"
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${wrap ? "whitespace-normal" : "whitespace-nowrap"} ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

type AdminButtonVariant = "primary" | "secondary" | "danger" | "accent";

const VARIANTS: Record<AdminButtonVariant, string> = {
  primary: "bg-primary-strong text-white hover:bg-primary-hover-strong",
  accent: "bg-accent-strong text-white hover:brightness-95",
  secondary: "border border-gray-300 bg-white text-gray-800 hover:bg-gray-50",
  danger: "bg-red-600 text-white hover:bg-red-700",
};

export function adminButtonClass(variant: AdminButtonVariant = "primary", extra = ""): string {
  return `inline-flex items-center justify-center gap-2 rounded-button px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-50 ${VARIANTS[variant]} ${extra}`.trim();
}

export function Button({
  variant = "primary",
  className = "",
  type = "button",
  ...rest
}: ComponentProps<"button"> & { variant?: AdminButtonVariant }) {
  return <button type={type} className={adminButtonClass(variant, className)} {...rest} />;
}

/** "Vorige" / "Volgende" around what the page shows (default "Pagina 2 van 5"); `page` from 1. */
export function Pager({
  page,
  lastPage,
  onPage,
  label = `Pagina ${page} van ${lastPage}`,
}: {
  page: number;
  lastPage: number;
  onPage: (page: number) => void;
  label?: ReactNode;
}) {
  return (
    <div className="mt-4 flex items-center justify-between gap-3 text-sm">
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Vorige
      </Button>
      <span className="text-center">{label}</span>
      <Button variant="secondary" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
        Volgende
      </Button>
    </div>
  );
}

export function Panel({
  title,
  actions,
  children,
  className = "",
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`rounded-card border border-gray-200 bg-white p-4 shadow-sm sm:p-6 ${className}`}>
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          {title && <h2 className="text-lg font-semibold text-gray-900">{title}</h2>}
          {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

export function Counter({
  label,
  value,
  tone = "text-gray-900",
  hint,
  className = "",
}: {
  label: string;
  value: ReactNode;
  tone?: string;
  /** What exactly is counted, in a line under the figure. */
  hint?: string;
  className?: string;
}) {
  return (
    <div
      className={`rounded-card border border-gray-200 bg-white p-4 shadow-sm ${className}`}
      data-testid={`counter-${label}`}
    >
      <p className="text-sm font-medium text-gray-600">{label}</p>
      <p className={`mt-1 text-2xl font-bold ${tone}`} data-testid="counter-value">
        {value}
      </p>
      {hint && (
        <p className="mt-1 text-xs text-gray-600" data-testid="counter-hint">
          {hint}
        </p>
      )}
    </div>
  );
}

/**
 * A settings form that saves on submit (its button or Enter), with the browser's own checks off so
 * that the server's Dutch messages are what a person reads.
 */
export function SaveForm({ onSave, children }: { onSave: () => void; children: ReactNode }) {
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      {children}
    </form>
  );
}

export const TEXT_INPUT =
  "mt-1 block w-full rounded-button border border-gray-300 bg-white px-3 py-2 text-gray-900 read-only:bg-gray-50 disabled:bg-gray-100 focus:border-primary";

/**
 * A labelled settings field with its message underneath, announced when it appears (role=alert).
 * A child that is the control itself (its id is the field's) gets aria-invalid and aria-describedby
 * for the hint and the message; a control inside a wrapper spreads fieldAria() itself.
 */
export function SettingsField({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  const control =
    isValidElement<{ id?: string; "aria-describedby"?: string }>(children) && children.props.id === id
      ? cloneElement(
          children,
          fieldAria(id, { error, hint: Boolean(hint), describedBy: children.props["aria-describedby"] }),
        )
      : children;
  return (
    <div>
      <label htmlFor={id} className="text-sm font-semibold text-gray-800">
        {label}
      </label>
      {control}
      {hint && (
        <div id={`${id}-hint`} className="mt-1 text-xs text-gray-600">
          {hint}
        </div>
      )}
      {error && (
        <p
          id={`${id}-fout`}
          role="alert"
          className="mt-1 text-sm font-medium text-red-700"
          data-testid="field-error"
        >
          {error}
        </p>
      )}
    </div>
  );
}

export function LoadingText({ children = "Laden..." }: { children?: ReactNode }) {
  return (
    <p className="py-8 text-center text-gray-600" role="status">
      {children}
    </p>
  );
}

/** What LoadError needs of a failed query (react-query's result). */
interface FailedQuery {
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
}

interface LoadErrorProps {
  query: FailedQuery;
  /** Said when the server's answer carries no message of its own. */
  fallback: string;
}

/**
 * Data that could not be loaded, where it would show: the server's message (or `fallback`), and a
 * button that loads it again.
 */
export function LoadError({ query, fallback }: LoadErrorProps) {
  return (
    <div className="py-6 text-center">
      <p className="text-red-700" role="alert" data-testid="load-failed">
        {userErrorMessage(query.error, fallback)}
      </p>
      <Button
        className="mt-4"
        variant="secondary"
        onClick={() => void query.refetch()}
        disabled={query.isFetching}
      >
        {query.isFetching ? "Laden..." : "Opnieuw proberen"}
      </Button>
    </div>
  );
}

/** A tab whose data could not be loaded: its panel with the LoadError. */
export function LoadFailed({ title, ...props }: LoadErrorProps & { title: string }) {
  return (
    <Panel title={title}>
      <LoadError {...props} />
    </Panel>
  );
}

/** A refresh that failed while older rows are still shown: says so above them until one succeeds. */
export function RefreshFailed({ message, what }: { message: string; what: string }) {
  return (
    <div
      role="alert"
      data-testid="refresh-failed"
      className="mb-4 rounded-card border border-red-200 bg-red-50 p-3 text-sm text-red-800"
    >
      <p className="font-semibold">Vernieuwen mislukt</p>
      <p className="mt-1">{message}</p>
      <p className="mt-1">De getoonde {what} zijn van de vorige keer laden en mogelijk niet actueel.</p>
    </div>
  );
}

/**
 * A settings panel's buttons: "Bewerken", or while editing "Opslaan" and "Annuleren" (with the
 * tab's own buttons `between` and `after` them), all held while a save is under way.
 */
export function EditActions({
  editing,
  saving,
  onEdit,
  onSave,
  onCancel,
  between,
  after,
}: {
  editing: boolean;
  saving: boolean;
  onEdit: () => void;
  onSave: () => void;
  onCancel: () => void;
  between?: ReactNode;
  after?: ReactNode;
}) {
  if (!editing) return <Button onClick={onEdit}>Bewerken</Button>;
  return (
    <>
      <Button onClick={onSave} disabled={saving}>
        {saving ? "Opslaan..." : "Opslaan"}
      </Button>
      {between}
      <Button variant="secondary" disabled={saving} onClick={onCancel}>
        Annuleren
      </Button>
      {after}
    </>
  );
}
