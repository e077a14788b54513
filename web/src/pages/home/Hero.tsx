import { buttonClass, CheckIcon } from "../../components/ui";
import { onPlainClick, useSiteNavigation } from "../../lib/navigation";

const HIGHLIGHTS = ["Reactie binnen 24 uur", "85% goedkeuring, ook met BKR", "Eén vaste contactpersoon"];

export function Hero() {
  const { goToSection } = useSiteNavigation();
  return (
    <section className="bg-hero px-4 py-20 text-white sm:px-6 lg:py-28" aria-labelledby="hero-titel">
      <div className="mx-auto grid max-w-6xl items-center gap-12 lg:grid-cols-[3fr_2fr]">
        <div>
          <p className="inline-block rounded-full bg-white/15 px-4 py-1 text-sm font-medium">
            Zakelijke autolease voor ondernemers en bedrijven
          </p>
          <h1
            id="hero-titel"
            className="mt-6 text-4xl leading-tight font-bold tracking-tight sm:text-5xl lg:text-6xl"
          >
            Zakelijk een auto leasen? Ook met een BKR-registratie.
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-white/90 sm:text-xl">
            Wij regelen financiële en operationele lease voor starters, zzp&apos;ers, het MKB en grote
            bedrijven. Met persoonlijk advies, vaste maandlasten en vaak binnen 24 uur een antwoord op uw
            aanvraag.
          </p>
          <div className="mt-8 flex flex-col gap-4 sm:flex-row">
            <a
              href="#aanvraag"
              onClick={onPlainClick(() => goToSection("aanvraag"))}
              className={buttonClass("primary", "text-lg")}
            >
              Direct Lease Aanvragen
            </a>
            <a
              href="#calculator"
              onClick={onPlainClick(() => goToSection("calculator"))}
              className={buttonClass("light", "text-lg")}
            >
              Bereken Maandlasten
            </a>
          </div>
          <ul className="mt-8 flex flex-col gap-3 text-white/95 sm:flex-row sm:flex-wrap sm:gap-x-6 lg:flex-col">
            {HIGHLIGHTS.map((item) => (
              <li key={item} className="flex items-center gap-2">
                <CheckIcon className="text-white" />
                {item}
              </li>
            ))}
          </ul>
        </div>
        <div className="rounded-card bg-white/10 p-6 ring-1 ring-white/20 backdrop-blur sm:p-8">
          <p className="text-sm font-semibold tracking-wide text-white/80 uppercase">
            Waarom ondernemers voor ons kiezen
          </p>
          <dl className="mt-6 grid grid-cols-2 gap-6">
            <div>
              <dt className="text-sm text-white/80">Zakelijke klanten</dt>
              <dd className="text-3xl font-bold">2.000+</dd>
            </div>
            <div>
              <dt className="text-sm text-white/80">Jaar ervaring</dt>
              <dd className="text-3xl font-bold">15+</dd>
            </div>
            <div>
              <dt className="text-sm text-white/80">Goedkeuring incl. BKR</dt>
              <dd className="text-3xl font-bold">85%</dd>
            </div>
            <div>
              <dt className="text-sm text-white/80">Klantwaardering</dt>
              <dd className="text-3xl font-bold">4,8/5</dd>
            </div>
          </dl>
        </div>
      </div>
    </section>
  );
}
