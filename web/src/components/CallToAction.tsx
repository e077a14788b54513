import { buttonClass } from "./ui";
import { onPlainClick, useSiteNavigation } from "../lib/navigation";

/** Closing block of the content pages: a quote request and the calculator, both on the home page. */
export function CallToAction({ title, text }: { title: string; text: string }) {
  const { goToSection } = useSiteNavigation();
  return (
    <section className="bg-hero px-4 py-16 text-white sm:px-6" aria-labelledby="cta-titel">
      <div className="mx-auto max-w-3xl text-center">
        <h2 id="cta-titel" className="text-3xl font-bold">
          {title}
        </h2>
        <p className="mt-4 text-lg text-white/90">{text}</p>
        <div className="mt-8 flex flex-col justify-center gap-4 sm:flex-row">
          <a
            href="/#aanvraag"
            onClick={onPlainClick(() => goToSection("aanvraag"))}
            className={buttonClass("primary")}
          >
            Offerte Aanvragen
          </a>
          <a
            href="/#calculator"
            onClick={onPlainClick(() => goToSection("calculator"))}
            className={buttonClass("light")}
          >
            Bereken Uw Lease
          </a>
        </div>
      </div>
    </section>
  );
}

/** A button that smooth-scrolls to an anchor on the same page (such as #voordelen). */
export function InPageLink({
  target,
  label,
  variant = "light",
}: {
  target: string;
  label: string;
  variant?: "light" | "primary" | "outline";
}) {
  const { scrollToId } = useSiteNavigation();
  return (
    <a href={`#${target}`} onClick={onPlainClick(() => scrollToId(target))} className={buttonClass(variant)}>
      {label}
    </a>
  );
}
