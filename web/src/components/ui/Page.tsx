import { Suspense, type ComponentProps, type ReactNode } from "react";

// The public pages' sections, hero, cards and figures.

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
